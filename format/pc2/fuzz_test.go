package pc2

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRead checks that Read never panics and that whatever it accepts
// survives a write and a second read unchanged.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.pc2")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, 3)
	}
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		if n < 0 || n > 1000 {
			return
		}
		fr, fps, err := readSplit(bytes.NewReader(data), n)
		if err != nil {
			return
		}
		if fps < 0 || fps != fps {
			t.Fatalf("frame rate %v", fps)
		}
		if len(fr) == 0 {
			return
		}
		var buf bytes.Buffer
		if err := Write(&buf, fr); err != nil {
			t.Fatal(err)
		}
		back, _, err := readSplit(&buf, n)
		if err != nil {
			t.Fatal(err)
		}
		for k := range fr {
			for i := range fr[k] {
				if back[k][i] != fr[k][i] {
					t.Fatalf("sample %d point %d: %v read back as %v", k+1, i+1, fr[k][i], back[k][i])
				}
			}
		}
	})
}
