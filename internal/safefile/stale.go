package safefile

import (
	"os"
	"path/filepath"
)

// RemoveStale removes the temporary files that Stage left beside path
// when the process writing it was killed outright (SIGKILL, the OOM
// killer: no handler runs, RemoveTemps cannot) and returns how many it
// removed. Call it only while no other process may be writing path: a
// batch runner does, before it starts an item it alone owns.
func RemoveStale(path string) (int, error) {
	pattern := filepath.Join(filepath.Dir(path), "."+escapeGlob(filepath.Base(path))+".*.tmp")
	m, err := filepath.Glob(pattern)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, t := range m {
		if st, err := os.Lstat(t); err != nil || !st.Mode().IsRegular() {
			continue
		}
		if err := os.Remove(t); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// escapeGlob quotes filepath.Match's special characters in a name.
func escapeGlob(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[', '\\':
			out = append(out, '\\')
		}
		out = append(out, s[i])
	}
	return string(out)
}
