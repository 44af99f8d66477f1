# Skrya's image: every stage runs from it (`skrya run <stage>`). UNTESTED here: this machine has no
# container engine. Build: docker build -t skrya:dev .   Run one stage: docker run skrya:dev run scorer
FROM node:24-bookworm-slim

WORKDIR /app
ENV NODE_ENV=production \
    # /metrics and /healthz on every interface of the pod, so the kubelet's probes reach them.
    SKRYA_METRICS_PORT=9464 \
    SKRYA_METRICS_HOST=0.0.0.0 \
    SKRYA_DATA_ROOT=/data \
    SKRYA_MODEL_DIR=/app/.skrya/models

COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

# Sources run as they are (Node's type stripping): no build step.
COPY bin ./bin
COPY cli ./cli
COPY domain ./domain
COPY infra ./infra
COPY runtime ./runtime
COPY schemas ./schemas
COPY services ./services
COPY topics ./topics
COPY ui ./ui
COPY scripts ./scripts
COPY examples ./examples

# The learned classifiers are trained from the repository's corpora into the image, not at start;
# training fetches its pinned real-text packages (apt from Debian bookworm, npm from the registry).
# deploy/dockerfile.test.ts checks that the folders above are all the entry points load.
RUN node scripts/train-models.ts all && mkdir -p /data && chown node:node /data
USER node
EXPOSE 9464
ENTRYPOINT ["node", "bin/skrya.js"]
CMD ["run", "all"]
