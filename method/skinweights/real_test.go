package skinweights

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/format"
	_ "github.com/meshrig/meshrig/format/obj"
	_ "github.com/meshrig/meshrig/format/off"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/static"
)

// sliceChain is a stand-in skeleton for a real mesh, independent of the
// skeleton methods: the centroids of k slabs along the longest side of
// the bounding box, linked in order.
func sliceChain(m *mesh.Mesh, k int) *static.Skeleton {
	lo, hi := mesh.Bounds(m.Verts)
	ax := 0
	for a := 1; a < 3; a++ {
		if hi[a]-lo[a] > hi[ax]-lo[ax] {
			ax = a
		}
	}
	sum := make([]linalg.Vec3, k)
	cnt := make([]int, k)
	for _, p := range m.Verts {
		b := min(int(float64(k)*(p[ax]-lo[ax])/(hi[ax]-lo[ax])), k-1)
		sum[b] = sum[b].Add(p)
		cnt[b]++
	}
	s := &static.Skeleton{}
	for b := range sum {
		if cnt[b] == 0 {
			continue
		}
		if n := len(s.Joints); n > 0 {
			s.Edges = append(s.Edges, [2]int{n - 1, n})
		}
		s.Joints = append(s.Joints, sum[b].Scale(1/float64(cnt[b])))
	}
	return s
}

func staticMeshes(tb testing.TB) []string {
	dir := shareddata.Path(tb, "static")
	ents, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if strings.Contains(e.Name(), ".obj") || strings.Contains(e.Name(), ".off") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// TestStaticMeshes: every mesh of the shared static set (quads, genus 4,
// several shells) gets valid weights from every scheme.
func TestStaticMeshes(t *testing.T) {
	if testing.Short() {
		t.Skip("reads every shared static mesh")
	}
	for _, path := range staticMeshes(t) {
		m, err := format.ReadMesh(path)
		if err != nil {
			t.Fatal(err)
		}
		s := sliceChain(m, 16)
		for _, scheme := range Schemes() {
			skin, err := Compute(m, s, scheme, Options{})
			if err != nil {
				t.Fatalf("%s %s: %v", filepath.Base(path), scheme, err)
			}
			if err := skin.Validate(len(s.Joints)); err != nil {
				t.Fatalf("%s %s: %v", filepath.Base(path), scheme, err)
			}
		}
	}
}

// BenchmarkArmadillo: the 43k-vertex target mesh with a 24-joint
// skeleton, per scheme (the factorization included).
func BenchmarkArmadillo(b *testing.B) {
	m, err := format.ReadMesh(shareddata.Path(b, "static/armadillo.obj.gz"))
	if err != nil {
		b.Fatal(err)
	}
	s := sliceChain(m, 24)
	for _, scheme := range Schemes() {
		b.Run(string(scheme), func(b *testing.B) {
			for b.Loop() {
				if _, err := Compute(m, s, scheme, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
