package aguiar

import (
	"context"
	"testing"

	"github.com/meshrig/meshrig/internal/testkit/testrig"
	"github.com/meshrig/meshrig/linalg"
)

// tubeSlabs splits the welded tube into k slabs of equal length along x
// (its bones' direction): vertex and triangle classes.
func tubeSlabs(p *problem, k int) segmentation {
	lo, hi := p.m.Rest[0][0], p.m.Rest[0][0]
	for _, v := range p.m.Rest {
		lo, hi = min(lo, v[0]), max(hi, v[0])
	}
	slab := func(x float64) int32 { return int32(min(k-1, int(float64(k)*(x-lo)/(hi-lo)))) }
	sg := segmentation{vertex: make([]int32, p.m.N), tri: make([]int32, len(p.w.Tris)), k: k}
	for i, v := range p.m.Rest {
		sg.vertex[i] = slab(v[0])
	}
	for t, tr := range p.w.Tris {
		sg.tri[t] = slab((p.m.Rest[tr[0]][0] + p.m.Rest[tr[1]][0] + p.m.Rest[tr[2]][0]) / 3)
	}
	return sg
}

// TestChoose: of the tube cut into one, three and two slabs, the three
// along its three bones reproduce its motion best; a repeated candidate
// loses its tie to the first.
func TestChoose(t *testing.T) {
	p, err := newProblem(testrig.Play(t, testrig.Tube(t, 12, linalg.Vec3{})))
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{}.withDefaults()
	one, three, two := tubeSlabs(p, 1), tubeSlabs(p, 3), tubeSlabs(p, 2)
	got, err := choose(context.Background(), p.m, p.w.Tris, p.heat, []segmentation{one, three, two}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got.k != 3 {
		t.Errorf("kept %d slabs, want 3", got.k)
	}
	same := tubeSlabs(p, 3) // equal, in its own arrays
	got, err = choose(context.Background(), p.m, p.w.Tris, p.heat, []segmentation{three, same}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if &got.vertex[0] != &three.vertex[0] {
		t.Error("a tie went to the later candidate")
	}
}

// TestSpectralLevels: one grouping per distinct k, in the levels' order
// (so k grows), levels met at one k sharing it, and a cap on k that every
// level runs into giving a single grouping at the cap.
func TestSpectralLevels(t *testing.T) {
	p, err := newProblem(testrig.Play(t, testrig.Tube(t, 12, linalg.Vec3{})))
	if err != nil {
		t.Fatal(err)
	}
	seed := seeds(p.m.Rest, 60)
	a := affinity(p.m, seed)
	levels := []float64{0.5, 0.6, 0.99, 0.999, 0.9999}
	gs := spectral(p.m, seed, a, levels, 12, 1)
	if len(gs) == 0 || len(gs) > len(levels) {
		t.Fatalf("%d groupings for %d levels", len(gs), len(levels))
	}
	for i, g := range gs {
		if len(g.label) != len(seed) || g.k < 1 || g.k > 12 || (i > 0 && g.k <= gs[i-1].k) {
			t.Fatalf("grouping %d: %d labels, k %d (previous %v)", i, len(g.label), g.k, gs[:i])
		}
	}
	if len(gs) == len(levels) {
		t.Error("0.5 and 0.6 of a three-bone tube's motion took different k")
	}
	capped := spectral(p.m, seed, a, levels[2:], 2, 1)
	if len(capped) != 1 || capped[0].k != 2 {
		t.Errorf("capped at 2: %d groupings, first k %d", len(capped), capped[0].k)
	}
}
