package batch

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// MemoryLimit is the memory this process may use, in bytes: the cgroup's
// limit when it has one (a container's resources.limits.memory, a Slurm
// job's --mem), else the machine's total; 0 when neither is known.
func MemoryLimit() int64 {
	for _, p := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err == nil && v > 0 && v < 1<<60 { // "max" and v1's huge number mean none
			return v
		}
	}
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// ParseSize reads a memory size: a number with an optional unit K, M, G
// or T (powers of 1024; "GiB", "GB" and "Gi" read alike), e.g. 512M, 8G,
// 1.5GiB. A bare number is bytes.
func ParseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := 1.0
	if n := len(t); n > 0 {
		if k := strings.IndexByte("KMGT", t[n-1]); k >= 0 {
			mult = math.Pow(1024, float64(k+1))
			t = t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || v <= 0 || math.IsInf(v, 0) || v*mult > 1<<62 {
		return 0, fmt.Errorf("size %q: want a positive size such as 512M or 8G", s)
	}
	return int64(v * mult), nil
}
