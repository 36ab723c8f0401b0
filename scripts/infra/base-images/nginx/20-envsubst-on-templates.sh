#!/bin/sh
# Renders every $NGINX_ENVSUBST_TEMPLATE_DIR/**/*$NGINX_ENVSUBST_TEMPLATE_SUFFIX into
# $NGINX_ENVSUBST_OUTPUT_DIR (defaults: /etc/nginx/templates, .template, /etc/nginx/conf.d), as the official
# nginx image does: only the ${NAME} of variables set in the environment are replaced, so nginx's own
# $variables stay as they are.
set -eu

template_dir=${NGINX_ENVSUBST_TEMPLATE_DIR:-/etc/nginx/templates}
suffix=${NGINX_ENVSUBST_TEMPLATE_SUFFIX:-.template}
output_dir=${NGINX_ENVSUBST_OUTPUT_DIR:-/etc/nginx/conf.d}

[ -d "$template_dir" ] || exit 0
if [ ! -w "$output_dir" ]; then
  echo "$0: $output_dir is not writable, templates not rendered" >&2
  exit 0
fi

defined_envs=$(printf '${%s} ' $(env | cut -d= -f1))
find "$template_dir" -follow -type f -name "*$suffix" -print | while read -r template; do
  relative=${template#"$template_dir/"}
  output="$output_dir/${relative%"$suffix"}"
  mkdir -p "$(dirname "$output")"
  echo "$0: rendering $template to $output"
  envsubst "$defined_envs" <"$template" >"$output"
done
