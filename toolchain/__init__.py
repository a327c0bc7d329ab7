"""The build's own compiler work: Transcrypt pinned and patched, the runtime patched, the Transcrypt lint, and the
parity recorder and replayer (toolchain/README.md). Imports nothing from tests/."""
