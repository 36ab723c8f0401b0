#!/bin/sh
# Writes the admin's basic-auth file (ADMIN_HTPASSWD_FILE) from ADMIN_USER and ADMIN_PASSWORD when the
# official nginx image starts: its /docker-entrypoint.sh runs every executable /docker-entrypoint.d/*.sh
# before nginx. The password is stored in nginx's salted SHA-1 scheme, {SSHA} =
# base64(sha1(password + salt) + salt), the one scripts/lib/secrets.ts writes for the local stack: nginx
# checks it natively, and the image's shell tools compute it (no openssl or htpasswd binary in the image).
# POSIX sh: busybox ash (alpine images) and dash (debian images).
set -eu

: "${ADMIN_USER:?ADMIN_USER is required (the admin's user name)}"
: "${ADMIN_PASSWORD:?ADMIN_PASSWORD is required (the admin's password)}"
: "${ADMIN_HTPASSWD_FILE:?ADMIN_HTPASSWD_FILE is required (where the gateway reads the admin credentials)}"

case "$ADMIN_USER" in
  *:* | *"
"*)
    echo "$0: ADMIN_USER must not contain ':' or a line break" >&2
    exit 1
    ;;
esac

# Prints the bytes a hexadecimal string spells (printf understands octal escapes everywhere, \x not).
hex_to_bytes() {
  rest=$1
  escaped=''
  while [ -n "$rest" ]; do
    pair=${rest%"${rest#??}"}
    rest=${rest#??}
    escaped="$escaped\\$(printf '%03o' "0x$pair")"
  done
  # shellcheck disable=SC2059 # the escapes are the format
  printf "$escaped"
}

salt=$(head -c 32 /dev/urandom | base64 | tr -dc 'A-Za-z0-9' | head -c 12)
digest=$(printf '%s%s' "$ADMIN_PASSWORD" "$salt" | sha1sum | cut -d ' ' -f 1)
hash=$({
  hex_to_bytes "$digest"
  printf '%s' "$salt"
} | base64 | tr -d '\n')

umask 077
mkdir -p "$(dirname "$ADMIN_HTPASSWD_FILE")"
printf '%s:{SSHA}%s\n' "$ADMIN_USER" "$hash" >"$ADMIN_HTPASSWD_FILE"
echo "$0: admin credentials for '$ADMIN_USER' written to $ADMIN_HTPASSWD_FILE"
