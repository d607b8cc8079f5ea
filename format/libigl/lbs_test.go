package libigl

import (
	"bytes"
	"testing"

	"github.com/meshrig/meshrig/linalg"
)

func TestTransformsLayout(t *testing.T) {
	// One bone: A = a quarter turn about z, t = (1, 2, 3), stored [Aᵀ; tᵀ]:
	// [1 0 0 1]·T = (0, 1, 0) + (1, 2, 3).
	m, err := ReadTable(bytes.NewReader(testdata(t, "quarter-turn.Tmat")))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Transforms(m)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr) != 1 || tr[0].Apply(linalg.Vec3{1, 0, 0}) != (linalg.Vec3{1, 3, 3}) || tr[0].M.Det() != 1 {
		t.Fatalf("%+v", tr)
	}
	if _, err := Transforms(&Matrix{Rows: 3, Cols: 3, Data: make([]float64, 9)}); err == nil {
		t.Error("a 3×3 matrix read as transforms")
	}
}

func TestAnimationFrame(t *testing.T) {
	// Two frames of two bones: column f is frame f's 8×3 transform matrix,
	// column-major — the 8×3 matrix's own Data.
	a := &Matrix{Rows: 8, Cols: 3, Data: make([]float64, 24)}
	b := &Matrix{Rows: 8, Cols: 3, Data: make([]float64, 24)}
	for k := range a.Data {
		a.Data[k], b.Data[k] = float64(k), float64(100+k)
	}
	anim := &Matrix{Rows: 24, Cols: 2, Data: append(append([]float64(nil), a.Data...), b.Data...)}
	for f, want := range []*Matrix{a, b} {
		got, err := AnimationFrame(anim, f)
		if err != nil {
			t.Fatal(err)
		}
		w, _ := Transforms(want)
		if len(got) != 2 || got[0] != w[0] || got[1] != w[1] {
			t.Errorf("frame %d: %+v, want %+v", f, got, w)
		}
	}
	if _, err := AnimationFrame(anim, 2); err == nil {
		t.Error("frame 3 of 2 read")
	}
	if _, err := AnimationFrame(&Matrix{Rows: 10, Cols: 1, Data: make([]float64, 10)}, 0); err == nil {
		t.Error("10 rows read as an animation")
	}
}

func TestDeform(t *testing.T) {
	verts := []linalg.Vec3{{1, 0, 0}, {0, 1, 0}}
	// Vertex 1 half on each bone, vertex 2 all on bone 2 (column-major).
	w := &Matrix{Rows: 2, Cols: 2, Data: []float64{0.5, 0, 0.5, 1}}
	tr := []linalg.Affine{linalg.Translation(linalg.Vec3{2, 0, 0}), linalg.Translation(linalg.Vec3{0, 4, 0})}
	got, err := Deform(verts, w, tr)
	if err != nil {
		t.Fatal(err)
	}
	if got[0] != (linalg.Vec3{2, 2, 0}) || got[1] != (linalg.Vec3{0, 5, 0}) {
		t.Errorf("%v", got)
	}
	if _, err := Deform(verts, w, tr[:1]); err == nil {
		t.Error("2 weight columns used with 1 transform")
	}
}

// BenchmarkDeform is libigl's LBS of a 6k-vertex mesh with 24 bones, every
// weight non-zero (the elephant's size).
func BenchmarkDeform(b *testing.B) {
	const n, bones = 6000, 24
	verts := make([]linalg.Vec3, n)
	w := &Matrix{Rows: n, Cols: bones, Data: make([]float64, n*bones)}
	for i := range verts {
		verts[i] = linalg.Vec3{float64(i % 17), float64(i % 13), float64(i % 7)}
	}
	for k := range w.Data {
		w.Data[k] = 1.0 / bones
	}
	tr := make([]linalg.Affine, bones)
	for k := range tr {
		tr[k] = linalg.Rigid(linalg.QuatFromAxisAngle(linalg.Vec3{0, 0, 1}, float64(k)), linalg.Vec3{float64(k), 0, 0})
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Deform(verts, w, tr); err != nil {
			b.Fatal(err)
		}
	}
}
