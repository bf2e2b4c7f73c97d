# Tessera: `make run` starts the embedded platform, `make test` runs every check CI runs.
# Node 24 comes from the `node` devDependency: node_modules/.bin goes first on PATH.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
export PATH := $(CURDIR)/node_modules/.bin:$(PATH)

STAMP := node_modules/.tessera-installed
MANIFESTS := package.json package-lock.json $(wildcard apps/*/package.json packages/*/package.json operators/*/package.json) k8s-tests/package.json

.PHONY: all install build run run-distributed test lint typecheck unit bench clean tools backends-up backends-down openapi \
	cluster-up cluster-down crds images deploy undeploy k6

all: build

$(STAMP): $(MANIFESTS)
	@echo "==> installing dependencies (npm ci)"
	@# --loglevel=error: under an older system Node, npm's engine warnings would be the first thing a
	@# newcomer reads, though the project brings its own Node 24 (the `node` devDependency).
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

install: $(STAMP)

build: $(STAMP)
	@echo "==> building (tsc -b)"
	tsc -b

run: build
	@# The exchange keeps its 09:30-16:00 New York session unless told otherwise; a newcomer trying it
	@# at any hour gets an open market (the banner says so).
	EXCHANGE_HOURS="$${EXCHANGE_HOURS:-always}" node apps/tessera/bin/tessera.js serve

# The leaderboard as on Kubernetes: NATS, Redis, Cassandra, two api processes and an archiver behind
# nginx on PORT (default 8080), data under DATA_DIR (default ./data/distributed); Ctrl-C stops it.
run-distributed: build
	bash tools/run-distributed.sh

lint: $(STAMP)
	@echo "==> lint (eslint, prettier)"
	eslint --max-warnings=0 .
	prettier --check .

# docs/openapi.json: the embedded platform's OpenAPI document (a test fails when it drifts).
openapi: build
	node apps/tessera/bin/tessera.js openapi --out docs/openapi.json

# crds/*.yaml and the chart's crds/: generated from the operator's schemas (a test fails when they drift).
crds: $(STAMP)
	npm run crds -w operators/tessera-operator

# The platform's images (every role; the operator), without a registry: imported into the local
# cluster's containerd when it runs (tools/images.sh says how they are made).
images: build
	bash tools/images.sh --import-if-up

# Tessera on the local cluster (started when it is not up): backing services, images, the chart
# with charts/tessera/values-local.yaml; waits for every pod, prints INGRESS_URL=…. AUTH_JWT_SECRET,
# when set, becomes the chart's signing key. tools/deploy.sh says the rest.
deploy: build
	bash tools/deploy.sh up

undeploy:
	bash tools/deploy.sh down

# k6 (k8s-tests/load/leaderboard.js) against INGRESS_URL (default: the local cluster's ingress).
k6: build
	bash tools/k6.sh

typecheck: build
	@echo "==> type-check tests and benchmarks"
	tsc -p tsconfig.test.json

# The real servers the adapter and smoke tests use (cached in ~/.cache/tessera; see docs/testing.md).
tools:
	@echo "==> tools (real servers for the tests)"
	bash tools/install.sh

backends-up:
	bash tools/backends.sh up

backends-down:
	bash tools/backends.sh down

# A real single-node Kubernetes cluster (kubelet, containerd, CoreDNS, Traefik; needs root).
cluster-up:
	bash tools/cluster.sh up

cluster-down:
	bash tools/cluster.sh down

unit: build tools
	@echo "==> tests"
	bash tools/run-tests.sh

test: lint typecheck unit

bench: build
	@echo "==> benchmarks (figures land in bench-results/)"
	npm run bench --workspaces --if-present

clean:
	rm -rf node_modules apps/*/dist packages/*/dist operators/*/dist apps/*/*.tsbuildinfo packages/*/*.tsbuildinfo operators/*/*.tsbuildinfo bench-results
