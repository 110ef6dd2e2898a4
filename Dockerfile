# syntax=docker/dockerfile:1
#
# One image for the whole platform. Every app is started from the same image by
# choosing its entry point (docker-compose `command`, Kubernetes `command`):
#
#   node dist/apps/gateway/src/main.js
#   node dist/apps/transaction-service/src/main.js
#   node dist/apps/split-ledger-service/src/main.js
#   node dist/apps/webhook-dispatcher/src/main.js
#   node dist/apps/<app>/src/main.js migrate      # create the database + run migrations, exit 0
#
# Without a command the image starts $APP (build arg, default gateway):
#   docker build --target runtime --build-arg APP=webhook-dispatcher -t payments-platform:local .
#
# Stages: deps (all npm deps) -> build (nx build of every project into dist/) -> runtime
# (production deps + dist/ only, non-root).

# Node.js 24 LTS, the exact version of .node-version (development and CI run the same one; a
# test checks that they agree), on Debian 13 (trixie) slim, from Docker Hub named in full.
# For a reproducible build, a release pipeline may pin the digest: --build-arg NODE_IMAGE=...@sha256:...
ARG NODE_IMAGE=docker.io/library/node:24.21.0-trixie-slim

# ---------------------------------------------------------------------------
# deps: install the full dependency tree (dev deps included: nx, typescript, swc).
# Only the manifests are copied so this layer is cached until they change.
# ---------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm \
    npm ci --no-audit --no-fund

# ---------------------------------------------------------------------------
# build: compile every app and lib into one dist/ tree that mirrors the repo
# (dist/apps/<app>/src/main.js, dist/libs/...).
# ---------------------------------------------------------------------------
FROM deps AS build
# No Nx daemon (a throw-away container) and never talk to Nx Cloud.
ENV NX_DAEMON=false \
    NX_NO_CLOUD=true
COPY . .
RUN npx nx run-many -t build

# ---------------------------------------------------------------------------
# runtime: production dependencies + compiled output, nothing else.
# ---------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app

# Production deps are installed fresh (not pruned from the build stage) so no dev
# tooling ends up in the image.
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --no-audit --no-fund

# Files stay owned by root: the app user can read but not modify its own code.
COPY --from=build /app/dist ./dist

# Default app when no command is given; compose and Kubernetes always pass one.
ARG APP=gateway
ENV APP=${APP}

# gateway 3000; transaction/split-ledger/webhook: RPC 4001-4003, HTTP 4101-4103.
EXPOSE 3000 4001 4002 4003 4101 4102 4103

# The official image's unprivileged user (uid/gid 1000). Kubernetes manifests set
# runAsUser: 1000 explicitly because runAsNonRoot cannot verify a user *name*.
USER node

# A young generation of at most 3 × 2 MiB (V8 lets it grow to 3 × 16 MiB): idle RSS 107–115 MB
# per service instead of 109–120 MB at 4 MiB and ≈ 130 MB at the default, for slightly more
# frequent minor GCs (2–10 % gateway CPU per request at 32 connections; docs/benchmarks.md).
ENV NODE_OPTIONS=--max-semi-space-size=2

# `exec` makes node PID 1 so it receives SIGTERM directly; the apps handle it
# (readiness goes red, in-flight work drains within SHUTDOWN_TIMEOUT_MS).
CMD ["sh", "-c", "exec node dist/apps/$APP/src/main.js"]
