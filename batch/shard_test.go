package batch

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// TestShardItems: for any count, every item is in exactly one shard,
// shard sizes differ by at most one, and line order does not matter.
func TestShardItems(t *testing.T) {
	var items, reversed []Item
	for k := 0; k < 23; k++ {
		items = append(items, Item{ID: fmt.Sprintf("item%02d", (k*7)%23)})
	}
	for k := len(items) - 1; k >= 0; k-- {
		reversed = append(reversed, items[k])
	}
	for n := 1; n <= 25; n++ {
		seen := map[string]int{}
		lo, hi := len(items), 0
		for i := 0; i < n; i++ {
			s := Shard{Index: i, Count: n}
			mine := s.Items(items)
			other := s.Items(reversed)
			if fmt.Sprint(mine) != fmt.Sprint(other) {
				t.Fatalf("shard %v depends on line order", s)
			}
			lo, hi = min(lo, len(mine)), max(hi, len(mine))
			for _, it := range mine {
				seen[it.ID]++
			}
		}
		if len(seen) != len(items) || hi-lo > 1 {
			t.Fatalf("%d shards: %d items seen, sizes %d to %d", n, len(seen), lo, hi)
		}
		for id, c := range seen {
			if c != 1 {
				t.Fatalf("%d shards: %s done %d times", n, id, c)
			}
		}
	}
}

func TestParseShard(t *testing.T) {
	if s, err := ParseShard("2/5"); err != nil || s != (Shard{2, 5}) {
		t.Errorf("2/5 = %v, %v", s, err)
	}
	for _, bad := range []string{"5/5", "-1/3", "1/0", "x/3", "3", "1/2/3"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestShardFromEnv(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for k := 0; k < len(kv); k += 2 {
			m[kv[k]] = kv[k+1]
		}
		return func(k string) string { return m[k] }
	}
	cases := []struct {
		env    func(string) string
		shards int
		want   Shard
		ok     bool
		err    string
	}{
		{env(), 0, Shard{}, false, ""},
		{env("JOB_COMPLETION_INDEX", "3"), 8, Shard{3, 8}, true, ""},
		{env("JOB_COMPLETION_INDEX", "3"), 0, Shard{}, true, "--shards N"},
		{env("JOB_COMPLETION_INDEX", "8"), 8, Shard{8, 8}, true, "want an index from 0 to 7"},
		{env("JOB_COMPLETION_INDEX", "x"), 8, Shard{}, true, "not a whole number"},
		{env("SLURM_ARRAY_TASK_ID", "4", "SLURM_ARRAY_TASK_COUNT", "5"), 0, Shard{4, 5}, true, ""},
		{env("SLURM_ARRAY_TASK_ID", "5", "SLURM_ARRAY_TASK_COUNT", "5", "SLURM_ARRAY_TASK_MIN", "1"), 0, Shard{4, 5}, true, ""},
		{env("SLURM_ARRAY_TASK_ID", "4", "SLURM_ARRAY_TASK_COUNT", "5"), 6, Shard{}, true, "--shards 6 but"},
		{env("SLURM_ARRAY_TASK_ID", "4"), 0, Shard{}, true, "SLURM_ARRAY_TASK_COUNT"},
	}
	for k, c := range cases {
		s, ok, err := ShardFromEnv(c.env, c.shards)
		if ok != c.ok || (c.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.err)) || (err == nil && s != c.want) {
			t.Errorf("case %d: %v %v %v; want %v %v %q", k, s, ok, err, c.want, c.ok, c.err)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"512M": 512 << 20, "8G": 8 << 30, "1.5GiB": 3 << 29, "2gb": 2 << 30, "100": 100, "4Ki": 4096} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("%s = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "G", "-1G", "0", "lots", "1e30T"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if runtime.GOOS == "linux" && MemoryLimit() < 64<<20 {
		t.Errorf("memory limit %d bytes: /proc/meminfo or the cgroup not read", MemoryLimit())
	}
}
