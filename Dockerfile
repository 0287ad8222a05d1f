# Builds the `compass` CLI and `compass-worker` into a small runtime image.
FROM swift:6.1-noble AS build
RUN apt-get update && apt-get install -y --no-install-recommends libpq-dev pkg-config && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
# One invocation: building the two products one after the other rebuilt the shared modules twice.
RUN swift build -c release

FROM swift:6.1-noble-slim
RUN apt-get update && apt-get install -y --no-install-recommends libpq5 && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/.build/release/compass /src/.build/release/compass-worker /usr/local/bin/
COPY sql /opt/compass/sql
ENV COMPASS_SQL_DIR=/opt/compass/sql COMPASS_WORKER_HOST=0.0.0.0 COMPASS_WORKER_PORT=4000
EXPOSE 4000
CMD ["compass-worker"]
