package batch

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Shard is one of Count parts of a manifest, Index counting from 0 (as
// Kubernetes' JOB_COMPLETION_INDEX does).
type Shard struct{ Index, Count int }

// All is the whole manifest as one shard.
var All = Shard{Index: 0, Count: 1}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Check refuses a shard outside its count.
func (s Shard) Check() error {
	if s.Count < 1 || s.Count > 1_000_000 {
		return fmt.Errorf("shard count %d: want 1 to 1000000", s.Count)
	}
	if s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("shard %d/%d: want an index from 0 to %d (shards count from 0)", s.Index, s.Count, s.Count-1)
	}
	return nil
}

// ParseShard reads "I/N": shard I of N, I from 0 to N-1.
func ParseShard(text string) (Shard, error) {
	i, n, ok := strings.Cut(text, "/")
	a, errA := strconv.Atoi(strings.TrimSpace(i))
	b, errB := strconv.Atoi(strings.TrimSpace(n))
	if !ok || errA != nil || errB != nil {
		return Shard{}, fmt.Errorf("shard %q: want I/N, e.g. 0/4 (shards count from 0)", text)
	}
	s := Shard{Index: a, Count: b}
	return s, s.Check()
}

// ShardFromEnv finds the shard in the environment of an array job:
// Kubernetes' Indexed Job sets JOB_COMPLETION_INDEX (its count, the Job's
// completions, is not in the environment, so shards must give it), Slurm
// sets SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (and
// SLURM_ARRAY_TASK_MIN, subtracted, so --array=1-8 works as 0-7 does).
// ok is false when neither is set.
func ShardFromEnv(getenv func(string) string, shards int) (s Shard, ok bool, err error) {
	num := func(key string) (int, error) {
		v, err := strconv.Atoi(strings.TrimSpace(getenv(key)))
		if err != nil {
			return 0, fmt.Errorf("%s=%q: not a whole number", key, getenv(key))
		}
		return v, nil
	}
	switch {
	case getenv("JOB_COMPLETION_INDEX") != "":
		if shards < 1 {
			return Shard{}, true, fmt.Errorf("JOB_COMPLETION_INDEX is set: give the Job's completions with --shards N")
		}
		i, err := num("JOB_COMPLETION_INDEX")
		if err != nil {
			return Shard{}, true, err
		}
		s = Shard{Index: i, Count: shards}
	case getenv("SLURM_ARRAY_TASK_ID") != "":
		i, err := num("SLURM_ARRAY_TASK_ID")
		if err != nil {
			return Shard{}, true, err
		}
		n, err := num("SLURM_ARRAY_TASK_COUNT")
		if err != nil {
			return Shard{}, true, err
		}
		if getenv("SLURM_ARRAY_TASK_MIN") != "" {
			lo, err := num("SLURM_ARRAY_TASK_MIN")
			if err != nil {
				return Shard{}, true, err
			}
			i -= lo
		}
		if shards > 0 && shards != n {
			return Shard{}, true, fmt.Errorf("--shards %d but SLURM_ARRAY_TASK_COUNT=%d", shards, n)
		}
		s = Shard{Index: i, Count: n}
	default:
		return Shard{}, false, nil
	}
	return s, true, s.Check()
}

// Items returns the shard's items: all items sorted by id are dealt
// round-robin, the k-th to shard k mod Count. Every item falls in exactly
// one shard, shard sizes differ by at most one, and the deal does not
// depend on the manifest's line order. (A hash of the id would keep an
// item's shard when others are added, but leaves shards unbalanced on
// small manifests — 8 items in 3 shards may give one shard none —; since
// a finished item is skipped by whichever shard meets it, from its report
// in the shared output folder, a changed manifest costs no work twice.)
// The items come back in id order.
func (s Shard) Items(items []Item) []Item {
	sorted := append([]Item(nil), items...)
	sort.Slice(sorted, func(a, b int) bool { return sorted[a].ID < sorted[b].ID })
	var mine []Item
	for k, it := range sorted {
		if k%s.Count == s.Index {
			mine = append(mine, it)
		}
	}
	return mine
}
