# Build with the official Swift image, run on a slim Debian with only runtime libraries and fonts.
FROM swift:6.1-bookworm AS build
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libswresample-dev libgif-dev \
      libcairo2-dev libpango1.0-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
COPY Tests ./Tests
COPY Benchmarks ./Benchmarks
COPY examples ./examples
RUN swift build -c release --product strata --static-swift-stdlib \
    && cp "$(swift build -c release --show-bin-path)/strata" /usr/local/bin/strata

FROM debian:bookworm-slim
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libavcodec59 libavformat59 libavutil57 libswscale6 libswresample4 libgif7 \
      libcairo2 libpango-1.0-0 libpangocairo-1.0-0 fonts-dejavu-core fonts-wqy-microhei ca-certificates \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /usr/local/bin/strata /usr/local/bin/strata
COPY Templates /opt/strata/Templates
WORKDIR /work
ENTRYPOINT ["strata"]
CMD ["--help"]
