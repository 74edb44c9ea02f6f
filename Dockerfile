# The standard two-stage image: build with the official Swift image, run on a slim Debian with
# only runtime libraries and fonts, as a non-root user, `strata` as the entrypoint. The layout is
# scripts/install.sh's with PREFIX=/usr/local: /usr/local/bin/strata, the ready templates in
# /usr/local/share/strata/Templates (also at /opt/strata/Templates, where earlier images had
# them), shell completions and the man page. With a registry, `docker build -t strata .` is all it takes;
# without one, `bash scripts/docker-offline-bases.sh` makes the two base images locally first.
FROM swift:6.3-bookworm AS build
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libavcodec-dev libavformat-dev libavutil-dev libswscale-dev libswresample-dev libgif-dev \
      libcairo2-dev libpango1.0-dev libvterm-dev zlib1g-dev pkg-config python3 \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Dependencies first, so that a source change does not fetch them again.
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
COPY Tests ./Tests
COPY Benchmarks ./Benchmarks
COPY examples ./examples
COPY Templates ./Templates
COPY scripts ./scripts
RUN SWIFT_BUILD_FLAGS=--static-swift-stdlib bash scripts/install.sh /usr/local \
    && rm /usr/local/share/strata/checkout

FROM debian:bookworm-slim
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      libavcodec59 libavformat59 libavutil57 libswscale6 libswresample4 libgif7 \
      libcairo2 libpango-1.0-0 libpangocairo-1.0-0 libvterm0 fontconfig fonts-dejavu-core fonts-wqy-microhei \
    && rm -rf /var/lib/apt/lists/* \
    && fc-cache -f \
    && useradd --uid 10001 --user-group --create-home --home-dir /home/strata --shell /usr/sbin/nologin strata \
    && mkdir -p /work && chown strata:strata /work
COPY --from=build /usr/local/bin/strata /usr/local/bin/strata
COPY --from=build /usr/local/share/strata /usr/local/share/strata
COPY --from=build /usr/local/share/bash-completion /usr/local/share/bash-completion
COPY --from=build /usr/local/share/zsh /usr/local/share/zsh
COPY --from=build /usr/local/share/fish /usr/local/share/fish
COPY --from=build /usr/local/share/man/man1/strata.1 /usr/local/share/man/man1/strata.1
RUN mkdir -p /opt/strata && ln -s /usr/local/share/strata/Templates /opt/strata/Templates
# Font caches are built above; a user without a home (docker run --user UID) still has a
# writable cache folder.
ENV XDG_CACHE_HOME=/tmp/.cache
WORKDIR /work
USER strata
ENTRYPOINT ["strata"]
CMD ["--help"]
