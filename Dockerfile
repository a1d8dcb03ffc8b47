# Dictum in a container: `docker build -t dictum .` then
# `docker run -p 8080:8080 -v dictum-data:/data dictum` (embedded PGlite in /data), or with
# DATABASE_URL set to share a PostgreSQL server (docker-compose.yml: three instances behind Caddy).

# Build: all dependencies, the compiled service and its bundle, and the seeded snapshot of the
# embedded database (so that a first start without DATABASE_URL does not build it).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
COPY seed ./seed
COPY assets ./assets
COPY test ./test
COPY bench ./bench
RUN node scripts/build-if-stale.mjs --force \
 && DICTUM_CACHE_DIR=/app/.cache node dist/src/main.js snapshot \
 && npm prune --omit=dev \
 && rm -rf dist/test dist/bench

# Run: the production dependencies and the build only, as the unprivileged user `node`.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DICTUM_DATA_DIR=/data \
    DICTUM_CACHE_DIR=/app/.cache \
    DICTUM_LOG_DIR= \
    MALLOC_MMAP_THRESHOLD_=131072 \
    MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json /app/tsconfig.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/scripts ./scripts
COPY --from=build --chown=node:node /app/seed ./seed
COPY --from=build --chown=node:node /app/assets ./assets
COPY --from=build --chown=node:node /app/.cache ./.cache
# The build is newer than its inputs: `scripts/start.mjs` starts without compiling.
RUN touch dist/.build-stamp && mkdir -p /data && chown node:node /data /app
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/api/v1/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The flags of `npm start` (README): young generation and heap growth tuned for request work.
ENTRYPOINT ["node", "--max-semi-space-size=16", "--min-semi-space-size=16", "--heap-growing-percent=100", "--no-memory-reducer", "scripts/start.mjs"]
CMD ["serve"]
