FROM node:24-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
ENV PORT=3000 HOST=0.0.0.0 SVC_DEMO=0
EXPOSE 3000
CMD ["node", "src/main.ts"]
