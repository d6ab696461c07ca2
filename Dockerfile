# syntax=docker/dockerfile:1
# The current Node.js LTS line (26), pinned to an exact release so builds repeat; development
# machines and CI run Node 20+ (package.json engines).
ARG NODE_IMAGE=node:26.10.0-trixie-slim

# Build stage: full dev dependencies to compile TypeScript.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json tsconfig.web.json ./
COPY src ./src
# The playground (a local UI for trying Regdesk, README "Playground") is for checkouts, not
# production: left out of the image, where a start without Slack settings stops with what to set.
RUN npm run build && rm -rf dist/src/playground

# Runtime stage: production dependencies only, non-root.
FROM ${NODE_IMAGE} AS runtime
# The commit built, for `regdesk_build_info` (`docker build --build-arg REGDESK_COMMIT=$(git rev-parse HEAD) .`).
ARG REGDESK_COMMIT=
ENV NODE_ENV=production PORT=3000 REGDESK_COMMIT=${REGDESK_COMMIT}
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY manifest.yml ./
USER node
EXPOSE 3000 3001
# Healthy when /healthz answers 200 on PORT (start, web) or WORKER_PORT (worker).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "Promise.any([process.env.PORT||3000,process.env.WORKER_PORT||3001].map(p=>fetch('http://127.0.0.1:'+p+'/healthz').then(r=>{if(!r.ok)throw r.status}))).then(()=>process.exit(0),()=>process.exit(1))"
# bin/regdesk starts Node with Regdesk's launch flags for this Node (they live there only) and execs it.
ENTRYPOINT ["/app/bin/regdesk"]
CMD ["start"]
