# One image for every process: the API (default), `node dist/apps/worker/src/main.js` for a worker,
# `node dist/libs/database/src/run-migrations.js` to apply the migrations.
# Node 26, the LTS line the project is built and tested on (scripts/node-runtime.sh pins the same line for CI and development).
FROM node:26-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# Production dependencies only: no compiler, test or benchmark packages in the final image.
FROM node:26-bookworm-slim AS production-dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:26-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# A young generation of 64 MiB per half: a batch of creates or a burst of jobs allocates far more than
# the default 16 MiB between two scavenges, which promoted short-lived objects and cost a fifth of the
# API's CPU per batched create in collections (docs/performance.md). At most ~100 MiB more memory.
ENV NODE_OPTIONS=--max-semi-space-size=64
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
USER node
# 3000: the API; 9464: a worker's metrics and health (WORKER_HTTP_PORT).
EXPOSE 3000 9464
# Readiness of the API (Postgres and Redis answer). Compose gives the worker its own and turns it off for the migrator.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/apps/api/src/main.js"]
