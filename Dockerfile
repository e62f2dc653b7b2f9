# One image for every part of the stack. Build once; choose the process with SERVICE:
#   docker build -t haven:local .
#   docker run -e SERVICE=thoughts ... haven:local   (auth | thoughts | insights | assistant | integrations | portability | gateway)
# RUN_WORKERS=false makes an API-only replica, RUN_API=false a worker-only one (docker-compose.yml runs both).
#
# Layers are ordered for the build cache (the classic builder and BuildKit alike): the package manifests
# and the lockfile come first, so `npm ci` reruns only when they change, never for a code edit.

# ---- build: every dependency (dev tools included), then the bundles and the SPA ----
FROM node:20-bookworm-slim AS build
ENV npm_config_update_notifier=false
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY contracts/package.json contracts/
COPY services/kit/package.json services/kit/
COPY services/auth/package.json services/auth/
COPY services/thoughts/package.json services/thoughts/
COPY services/insights/package.json services/insights/
COPY services/assistant/package.json services/assistant/
COPY services/integrations/package.json services/integrations/
COPY services/portability/package.json services/portability/
COPY gateway/package.json gateway/
COPY frontend/package.json frontend/
RUN npm ci --no-audit --no-fund
COPY . .
# The bundles hold our own code; npm packages stay external. list-externals.mjs records, per bundle,
# every package it imports at run time, for the check in the runtime stage below.
RUN node scripts/build.mjs && node docker/list-externals.mjs > /app/externals.json

# ---- deps: runtime packages only, laid out as npm lays them out ----
# The services' and the gateway's production dependencies (not the SPA's: it is served pre-built).
# npm keeps a workspace's own version of a package in that workspace's node_modules when the root holds
# another (services/integrations/node_modules/p-limit 7.x): the whole tree is copied, not only the root's.
FROM node:20-bookworm-slim AS deps
ENV npm_config_update_notifier=false
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY contracts/package.json contracts/
COPY services/kit/package.json services/kit/
COPY services/auth/package.json services/auth/
COPY services/thoughts/package.json services/thoughts/
COPY services/insights/package.json services/insights/
COPY services/assistant/package.json services/assistant/
COPY services/integrations/package.json services/integrations/
COPY services/portability/package.json services/portability/
COPY gateway/package.json gateway/
COPY frontend/package.json frontend/
RUN npm ci --omit=dev --no-audit --no-fund --include-workspace-root \
      -w contracts -w services/kit -w services/auth -w services/thoughts -w services/insights \
      -w services/assistant -w services/integrations -w services/portability -w gateway \
  && rm -rf frontend /root/.npm

# ---- runtime ----
FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=3000 SERVICE=gateway DATA_DIR=/app/data
WORKDIR /app
# node_modules of the root and of every workspace that has its own, with the workspaces' package.json
COPY --from=deps /app ./
COPY --from=build /app/services/auth/dist services/auth/dist
COPY --from=build /app/services/auth/drizzle services/auth/drizzle
COPY --from=build /app/services/thoughts/dist services/thoughts/dist
COPY --from=build /app/services/thoughts/drizzle services/thoughts/drizzle
COPY --from=build /app/services/insights/dist services/insights/dist
COPY --from=build /app/services/insights/drizzle services/insights/drizzle
COPY --from=build /app/services/assistant/dist services/assistant/dist
COPY --from=build /app/services/assistant/drizzle services/assistant/drizzle
COPY --from=build /app/services/integrations/dist services/integrations/dist
COPY --from=build /app/services/integrations/drizzle services/integrations/drizzle
COPY --from=build /app/services/portability/dist services/portability/dist
COPY --from=build /app/services/portability/drizzle services/portability/drizzle
COPY --from=build /app/gateway/dist gateway/dist
COPY --from=build /app/dist/rekey.js /app/dist/rekey.js.map dist/
COPY --from=build /app/frontend/dist frontend/dist
COPY --from=build /app/externals.json docker/externals.json
COPY docker/check-runtime-deps.mjs docker/entrypoint.sh docker/healthcheck.sh docker/
# The build fails here when a bundle cannot load a package it imports, from where that bundle lives.
# DATA_DIR: nothing durable lives there when DATABASE_URL and SMTP_URL are set (as in compose); it
# must only be writable by the node user. /backups: where compose mounts the backups volume (a new
# volume takes this folder's owner, so the node user can write it).
RUN node docker/check-runtime-deps.mjs docker/externals.json \
  && mkdir -p /app/data /backups && chown node:node /app/data /backups \
  && chmod +x docker/entrypoint.sh docker/healthcheck.sh && ln -s /app/docker/entrypoint.sh /entrypoint.sh
USER node
EXPOSE 3000
ENTRYPOINT ["/entrypoint.sh"]
