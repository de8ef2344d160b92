# Build stage: the operator console (console/, React + Relay + Vite) with the dev dependencies.
FROM node:24-bookworm-slim AS console
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY console ./console
COPY schema/schema.graphql ./schema/schema.graphql
COPY scripts/console-build.ts ./scripts/console-build.ts
RUN node scripts/console-build.ts

# The service: production dependencies, the server's code and the console's built files only.
FROM node:24-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json mikro-orm.config.ts ./
COPY src ./src
COPY rest ./rest
COPY schema ./schema
COPY --from=console /app/console/dist ./console/dist
ENV PORT=3000 HOST=0.0.0.0 SVC_DEMO=0
EXPOSE 3000
CMD ["node", "src/main.ts"]
