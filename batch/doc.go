// Package batch runs `meshrig rig` over a studio's library: a manifest of
// items (one character's animation each), split into shards so that
// separate machines — a Kubernetes Indexed Job, a Slurm array — share the
// work without a scheduler of their own, run a few items at a time within
// a memory budget, and resumed after a kill without redoing finished items.
//
// The flow is manifest → shard → plan → run → reports:
//
//   - ReadManifest parses a JSON Lines manifest (or a folder of item
//     folders) and checks every line before any work starts.
//   - Shard.Items deals the items to shards: sorted by id, round-robin.
//   - Prepare hashes each item's input files (Digest) and sizes it
//     (MemoryModel); an item whose report in the output folder matches its
//     current inputs and options is skipped.
//   - Run starts the rest, at most Options.Jobs at once and within
//     Options.MaxMemory, each through a Runner (Exec runs a child
//     `meshrig rig` process), and writes one JSON Report per item through
//     internal/safefile.
//   - ReadReports and Summarize merge every shard's reports.
//
// Example:
//
//	items, err := batch.ReadManifest("library.jsonl")
//	mine := batch.Shard{Index: 0, Count: 4}.Items(items)
//	todo, err := batch.Prepare(ctx, mine, opt)
//	sum, err := batch.Run(ctx, todo, opt)
//
// Formats are found through format's registry: the program imports the
// format packages it needs (meshrig imports them all). The package never prints: Run reports each finished item to
// Options.Events.
package batch
