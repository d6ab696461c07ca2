# syntax=docker/dockerfile:1
# The current Node.js LTS line (26), pinned to an exact release so builds repeat; development
# machines and CI run Node 20+ (package.json engines).
ARG NODE_IMAGE=node:26.10.0-trixie-slim

# Build stage: full dev dependencies to compile TypeScript.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

# Runtime stage: production dependencies only, non-root.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY manifest.yml ./
# The playground's page and styles (its scripts are compiled into dist/). It answers only with the
# token printed at start-up (and only loopback clients, a second layer that a port forwarder or a
# same-host proxy can pass; README "Playground"). With Slack settings it is off unless REGDESK_PLAYGROUND=1.
COPY src/playground/web/static ./src/playground/web/static
USER node
EXPOSE 3000 3001
# Healthy when /healthz answers 200 on PORT (start, web) or WORKER_PORT (worker).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "Promise.any([process.env.PORT||3000,process.env.WORKER_PORT||3001].map(p=>fetch('http://127.0.0.1:'+p+'/healthz').then(r=>{if(!r.ok)throw r.status}))).then(()=>process.exit(0),()=>process.exit(1))"
# The bin itself: its `#!/usr/bin/env -S node …` line carries the launch flags (src/cli.ts).
ENTRYPOINT ["/app/dist/src/cli.js"]
CMD ["start"]
