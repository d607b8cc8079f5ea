// Package batch runs `meshrig rig` over a studio's library: a manifest of
// items (one character's animation each), split into shards so that
// separate machines — a Kubernetes Indexed Job, a Slurm array — share the
// work without a scheduler of their own, run a few items at a time within
// a memory budget, and resumed after a kill without redoing finished items.
//
// The flow is manifest → shard → run → reports:
//
//   - ReadManifest parses a JSON Lines manifest (or a folder of item
//     folders) and checks every line before any work starts.
//   - Shard.Items deals the items to shards: sorted by id, round-robin.
//   - Run lists and hashes each item's input files (Item.Files, Digest)
//     and sizes it (Item.Measure, MemoryModel); an item whose report in
//     the output folder matches its current inputs and options is
//     skipped. It starts the rest, at most Options.Jobs at once and within
//     Options.MaxMemory, each through a Runner (Exec: a child `meshrig
//     rig` process per item), and writes one JSON Report per item through
//     internal/safefile.
//   - ReadReports and Summarize merge every shard's reports.
//
// Formats are found through format's registry: the program imports the
// format packages it needs (meshrig imports them all). The package never
// prints: Run tells Options.Events of each settled item.
package batch
