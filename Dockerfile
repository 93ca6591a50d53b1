# One image for both processes: `node dist/apps/api/src/main.js` or `node dist/apps/worker/src/main.js`.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# Development dependencies stay: `npm run migration:run` runs the TypeScript migrations with ts-node.
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/libs ./libs
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
USER node
EXPOSE 3000
CMD ["node", "dist/apps/api/src/main.js"]
