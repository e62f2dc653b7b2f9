# One image for every part of the stack. Build once; choose the process with SERVICE:
#   docker build -t haven .
#   docker run -e SERVICE=thoughts ... haven      (auth | thoughts | insights | assistant | integrations | portability | gateway)
# Workers run inside each service process; set RUN_WORKERS=false to run an API-only replica.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
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
RUN node scripts/build.mjs

FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/contracts/package.json contracts/
COPY --from=build /app/services/kit/package.json services/kit/
COPY --from=build /app/services/auth/package.json services/auth/
COPY --from=build /app/services/thoughts/package.json services/thoughts/
COPY --from=build /app/services/insights/package.json services/insights/
COPY --from=build /app/services/assistant/package.json services/assistant/
COPY --from=build /app/services/integrations/package.json services/integrations/
COPY --from=build /app/services/portability/package.json services/portability/
COPY --from=build /app/gateway/package.json gateway/
COPY --from=build /app/frontend/package.json frontend/
# Runtime packages only: the bundles hold our own code; dev tools and the SPA toolchain stay behind.
RUN npm ci --omit=dev --no-audit --no-fund \
  && rm -rf node_modules/@haven/frontend node_modules/react* node_modules/@tanstack

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=3000 SERVICE=gateway
WORKDIR /app
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/services/kit/package.json services/kit/
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
COPY --from=build /app/frontend/dist frontend/dist
COPY docker/entrypoint.sh /entrypoint.sh
USER node
EXPOSE 3000
ENTRYPOINT ["/entrypoint.sh"]
