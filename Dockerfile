# One image for every role: web instances, the worker and the release step (`npm run migrate`).
# The development dependencies stay: `npm run migrate` and `npm run merchant:create` load the
# application's source through Vite.
FROM node:20-bookworm-slim AS app
WORKDIR /app
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# better-sqlite3 and argon2 build against Node's headers when no prebuilt binary matches.
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && mkdir -p data && chown node:node data
ENV NODE_ENV=production PORT=8080
EXPOSE 8080
USER node
CMD ["node", "server.js", "--role", "all"]
