# docs-assistant host: serves a static export bundle (the Helm chart under deploy/helm runs this image).
#   docker build -t docs-assistant:0.1.0 .
#   docker run -p 8080:8080 -e DOCS_ASSISTANT_STATIC_EXPORT_ENABLED=true \
#     -e DOCS_ASSISTANT_STATIC_EXPORT_BUNDLE_URL='https://…' docs-assistant:0.1.0
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
COPY --from=build /app/docs ./docs
RUN mkdir -p /var/cache/docs-assistant && chown node:node /var/cache/docs-assistant
USER node
VOLUME /var/cache/docs-assistant
EXPOSE 8080
ENTRYPOINT ["node", "bin/docs-assistant.js"]
CMD ["host", "--host", "0.0.0.0", "--port", "8080", "--cache", "/var/cache/docs-assistant"]
