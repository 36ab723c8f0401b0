#!/bin/sh
# The stand-in gateway base's entrypoint, with the official nginx image's contract: when the command is
# nginx, every /docker-entrypoint.d/*.sh that is executable runs first, in name order (*.envsh files are
# sourced, so what they export reaches nginx); then the command replaces this shell.
set -eu

if [ "${1:-}" = nginx ] || [ "${1:-}" = nginx-debug ]; then
  for script in /docker-entrypoint.d/*; do
    [ -f "$script" ] || continue
    case "$script" in
      *.envsh)
        if [ -x "$script" ]; then
          echo "$0: sourcing $script"
          # shellcheck disable=SC1090 # the scripts are the image user's
          . "$script"
        fi
        ;;
      *.sh)
        if [ -x "$script" ]; then
          echo "$0: running $script"
          "$script"
        else
          echo "$0: ignoring $script, not executable"
        fi
        ;;
    esac
  done
  echo "$0: configuration complete; ready for start up"
fi

exec "$@"
