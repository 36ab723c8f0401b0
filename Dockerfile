# syntax=docker/dockerfile:1
# Every LogoVote image: each Koa service and each front end (the shell and the Module Federation remotes) is its
# own image, version and deployment, and all of them build from this one recipe, from the repository root (the
# npm workspaces share one lockfile there). Which component: its workspace folder; which kind of image: the target.
#   docker build --target service --build-arg WORKSPACE=services/votes --build-arg PORT=4002 \
#     --build-arg VERSION=0.1.0 -t logovote/votes:0.1.0 .
#   docker build --target static --build-arg WORKSPACE=mfes/vote --build-arg PORT=3002 \
#     --build-arg VERSION=0.1.0 -t logovote/mfe-vote:0.1.0 .
#   docker build --target static --build-arg WORKSPACE=shells/web --build-arg PORT=3000 \
#     --build-arg HEALTH_PATH=/ --build-arg SERVER_FLAGS=--spa --build-arg VERSION=0.1.0 -t logovote/web:0.1.0 .
# docker-compose.yml passes each image's arguments (tests/deploy holds them to this file).
#
# Build arguments:
#   WORKSPACE     the component's workspace folder (services/<name>, shells/web, mfes/<name>); required
#   PORT          the port it listens on (ENV PORT and EXPOSE); required
#   VERSION       its version (the image's version label; its package.json version)
#   HEALTH_PATH   static only: the path its HEALTHCHECK fetches (/mf-manifest.json; / for the shell)
#   SERVER_FLAGS  static only: extra flags of packages/static-server (--spa for the shell's route fallback)
#   NODE_IMAGE, RUNTIME_IMAGE: the base images (pinned official ones by default; where no registry is reachable,
#                 deploy/compose.standins.yml names local stand-ins)
#
# Stages (a target builds only the stages it needs):
#   manifests -> deps (the whole workspace's dependencies, the same for every image) -> service-build | static-build
#   manifests -> service-deps (the service's production dependencies) ---> service (runtime target)
#   manifests -> static-deps (the static server's production dependencies) -> static (runtime target)
ARG NODE_IMAGE=node:20.20-bookworm-slim
ARG RUNTIME_IMAGE=node:20.20-alpine

# Every package.json and the lockfile, nothing else: the install layers below are rebuilt only when
# dependencies change, not on every source edit.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN mkdir ../manifests \
 && find . -name package.json -not -path '*/node_modules/*' -exec cp --parents {} ../manifests \; \
 && cp package-lock.json .npmrc ../manifests/

# The whole workspace's dependencies, to build with: no build argument reaches this stage, so one build host
# installs it once for every image. Exactly the lockfile (npm ci). Install scripts stay off, as in development:
# native code (rspack, sharp, ...) comes as prebuilt optional packages.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY --from=manifests /manifests ./
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund

# A service: compile it and the packages it uses, then drop what only the compiler needed (and the development
# dependencies), so the runtime takes compiled code from here and its dependencies from service-deps only.
FROM deps AS service-build
COPY . .
ARG WORKSPACE
# A workspace of another kind would build an image that cannot start: refuse it here.
RUN case "$WORKSPACE" in services/?*) ;; *) echo "--target service needs --build-arg WORKSPACE=services/<name>, not '$WORKSPACE'" >&2; exit 1 ;; esac
RUN npx tsc -b "$WORKSPACE" \
 && rm -rf "$WORKSPACE/src" "$WORKSPACE/test" "$WORKSPACE/tsconfig.json" "$WORKSPACE/node_modules" \
 && find packages -mindepth 2 -maxdepth 2 \( -name src -o -name test -o -name 'tsconfig*.json' -o -name node_modules \) -exec rm -rf {} +

# A front end: the static server (the same for every front end, built before the argument that tells them
# apart), then the front end's own production build.
FROM deps AS static-build
COPY . .
RUN npx tsc -b packages/static-server
ARG WORKSPACE
# A workspace of another kind would build an image that cannot start: refuse it here.
RUN case "$WORKSPACE" in shells/?*|mfes/?*) ;; *) echo "--target static needs --build-arg WORKSPACE=shells/<name> or mfes/<name>, not '$WORKSPACE'" >&2; exit 1 ;; esac
RUN npm run build --workspace "$WORKSPACE"

FROM ${NODE_IMAGE} AS service-deps
WORKDIR /app
COPY --from=manifests /manifests ./
ARG WORKSPACE
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --workspace "$WORKSPACE" --ignore-scripts --no-audit --no-fund

FROM ${NODE_IMAGE} AS static-deps
WORKDIR /app
COPY --from=manifests /manifests ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --workspace packages/static-server --ignore-scripts --no-audit --no-fund

# ---- target service: a Koa service (glibc base: sharp ships glibc binaries) ----
FROM ${NODE_IMAGE} AS service
ARG WORKSPACE
ARG PORT
ARG VERSION=dev
LABEL org.opencontainers.image.title="LogoVote ${WORKSPACE}" \
      org.opencontainers.image.description="LogoVote Koa service, from the npm workspace ${WORKSPACE}" \
      org.opencontainers.image.version="${VERSION}"
ENV NODE_ENV=production HOST=0.0.0.0 PORT=${PORT}
WORKDIR /app
# Production dependencies (wherever npm put them) and the workspace manifests, then the compiled code.
COPY --from=service-deps /app ./
COPY --from=service-build /app/packages ./packages
COPY --from=service-build /app/${WORKSPACE} ./${WORKSPACE}
WORKDIR /app/${WORKSPACE}
# The image's unprivileged user; the application files stay root-owned and read-only to it.
USER node
EXPOSE ${PORT}
# Each check starts a node process: on a busy host that alone can take seconds, so the timeout, the start period
# and five misses in a row (50 s) leave room for it rather than marking a working server unhealthy.
HEALTHCHECK --interval=10s --timeout=10s --start-period=60s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/server.js"]

# ---- target static: a front end's static build, served by packages/static-server (production cache headers).
# The static server is plain JavaScript: the small musl-based image runs it. The shell finds the remotes at run
# time through /runtime-config.json, so no front end needs rebuilding for another's new version. ----
FROM ${RUNTIME_IMAGE} AS static
ARG WORKSPACE
ARG PORT
ARG VERSION=dev
ARG HEALTH_PATH=/mf-manifest.json
ARG SERVER_FLAGS=
LABEL org.opencontainers.image.title="LogoVote ${WORKSPACE}" \
      org.opencontainers.image.description="LogoVote front end, the static build of the npm workspace ${WORKSPACE}" \
      org.opencontainers.image.version="${VERSION}"
ENV NODE_ENV=production HOST=0.0.0.0 PORT=${PORT} HEALTH_PATH=${HEALTH_PATH} SERVER_FLAGS=${SERVER_FLAGS}
WORKDIR /app
COPY --from=static-deps /app ./
COPY --from=static-build /app/packages/static-server/dist ./packages/static-server/dist
COPY --from=static-build /app/${WORKSPACE}/dist ./site
# The image's unprivileged user; the files it serves stay root-owned and read-only to it.
USER node
EXPOSE ${PORT}
# As the service target's: room for a slow node start on a busy host.
HEALTHCHECK --interval=10s --timeout=10s --start-period=60s --retries=5 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + process.env.HEALTH_PATH).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# A shell only to put HOST, PORT and the flags on the command line; exec hands it PID 1 (signals, exit code).
CMD ["/bin/sh", "-c", "exec node packages/static-server/dist/cli.js --dir site --host \"$HOST\" --port \"$PORT\" $SERVER_FLAGS"]
