# syntax=docker/dockerfile:1
# The current Node.js LTS line (26), pinned to an exact release, and by digest to the image that tag
# named when it was pinned: a tag is re-pushed whenever Debian's packages are updated, a digest never
# changes, so every build starts from the same bytes. Renovate keeps both current (renovate.json,
# group "node"): its dockerfile manager reads this ARG, proposes the next 26.x release with its
# digest, and a new digest alone when the tag is rebuilt, together with CI's IMAGE_NODE (.ci/run).
# By hand: `docker buildx imagetools inspect node:26.10.0-trixie-slim` prints the digest to put here.
# Development machines and CI run Node 20+ (package.json engines).
ARG NODE_IMAGE=node:26.10.0-trixie-slim@sha256:ec7758ee051e457b468b32bde57b0879010b325bb9862718e9615225ce4aaae1

# Build stage: full dev dependencies to compile TypeScript, then only the production ones are kept.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json tsconfig.web.json ./
COPY src ./src
# The playground (a local UI for trying Regdesk, docs/playground.md) is for checkouts, not
# production: left out of the image, where a start without Slack settings stops with what to set.
RUN npm run build && rm -rf dist/src/playground
# The dev dependencies go; the runtime stage takes node_modules as they are then: exactly the
# packages (and native builds) of the `npm ci` above, without a second install from the registry.
RUN npm prune --omit=dev --no-audit --no-fund

# Runtime stage: production dependencies only, non-root.
FROM ${NODE_IMAGE} AS runtime
ARG NODE_IMAGE
# The package.json version (checked by test/deploy/manifests.unit.test.ts) and the commit built, for
# `regdesk_build_info` (`docker build --build-arg REGDESK_COMMIT=$(git rev-parse HEAD) .`).
ARG REGDESK_VERSION=0.3.0
ARG REGDESK_COMMIT=
# OCI image annotations (github.com/opencontainers/image-spec, annotations.md): what this image is,
# which commit, under which licence, on which base.
LABEL org.opencontainers.image.title="Regdesk" \
  org.opencontainers.image.description="Slack chat-ops for a domain registrar, DNS host and TLS certificate reseller" \
  org.opencontainers.image.version="${REGDESK_VERSION}" \
  org.opencontainers.image.revision="${REGDESK_COMMIT}" \
  org.opencontainers.image.licenses="Apache-2.0" \
  org.opencontainers.image.base.name="${NODE_IMAGE}"
ENV NODE_ENV=production PORT=3000 REGDESK_COMMIT=${REGDESK_COMMIT}
WORKDIR /app
COPY package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY manifest.yml ./
USER node
EXPOSE 3000 3001
# Healthy when /healthz answers 200 on PORT (start, web) or WORKER_PORT (worker).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "Promise.any([process.env.PORT||3000,process.env.WORKER_PORT||3001].map(p=>fetch('http://127.0.0.1:'+p+'/healthz').then(r=>{if(!r.ok)throw r.status}))).then(()=>process.exit(0),()=>process.exit(1))"
# bin/regdesk starts Node with Regdesk's launch flags for this Node and execs it. The flags live there
# and nowhere else (no NODE_OPTIONS here): the image, `npm start`, `npx regdesk` and the bench all start
# Regdesk through that one file (test/deploy/manifests.unit.test.ts checks this file sets none).
ENTRYPOINT ["/app/bin/regdesk"]
CMD ["start"]
