package aguiar

import (
	"context"
	"testing"

	"github.com/meshrig/meshrig/internal/testrig"
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
	got, err := choose(context.Background(), p.m, p.w.Tris, []segmentation{one, three, two}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got.k != 3 {
		t.Errorf("kept %d slabs, want 3", got.k)
	}
	same := tubeSlabs(p, 3) // equal, in its own arrays
	got, err = choose(context.Background(), p.m, p.w.Tris, []segmentation{three, same}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if &got.vertex[0] != &three.vertex[0] {
		t.Error("a tie went to the later candidate")
	}
}
