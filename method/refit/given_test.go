package refit

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/rig"
)

// TestMaskKeepsWeights: vertices with mask 0 keep the rig's weights bit
// for bit; the masked-in ones, started wrong, are solved.
func TestMaskKeepsWeights(t *testing.T) {
	truth, s := biped(t)
	r := *truth
	r.Skin = append(rig.Skin(nil), truth.Skin...)
	mask := make([]float64, len(r.Skin))
	for i, v := range r.Mesh.Verts {
		if v[0] > 0.05 && v[1] < 0.9 { // the left leg
			mask[i] = 1
			r.Skin[i] = rig.Influence{Joint: [4]rig.JointID{0}, Weight: [4]float64{1}}
		}
	}
	out, rep, err := Animation(context.Background(), &r, s, Options{Solve: Weights, Mask: mask})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("RMSE%% %.4f → %.6f", rep.StartRMSEPercent, rep.RMSEPercent)
	if rep.RMSEPercent > rep.StartRMSEPercent/10 {
		t.Errorf("masked solve left RMSE%% %.4f of %.4f", rep.RMSEPercent, rep.StartRMSEPercent)
	}
	for i := range mask {
		if mask[i] == 0 && out.Skin[i] != r.Skin[i] {
			t.Fatalf("vertex %d: %+v, want %+v", i, out.Skin[i], r.Skin[i])
		}
	}
	// Both: the motion moves too, the mask-0 weights still do not.
	out, _, err = Animation(context.Background(), &r, s, Options{Mask: mask})
	if err != nil {
		t.Fatal(err)
	}
	for i := range mask {
		if mask[i] == 0 && out.Skin[i] != r.Skin[i] {
			t.Fatalf("solve both, vertex %d: %+v, want %+v", i, out.Skin[i], r.Skin[i])
		}
	}
}

// TestPlaceSkeleton: a skeleton on its mesh passes unchanged; one in
// centimetres is refused, and mapped back exactly with its own mesh as
// reference; a joint far outside is named.
func TestPlaceSkeleton(t *testing.T) {
	truth, _ := biped(t)
	verts := truth.Mesh.Verts
	got, _, err := PlaceSkeleton(truth.Skeleton, verts, false, nil)
	if err != nil || got.Joints[5] != truth.Skeleton.Joints[5] {
		t.Fatalf("true skeleton: %v", err)
	}
	cm := rig.Skeleton{Joints: append([]rig.Joint(nil), truth.Skeleton.Joints...)}
	ref := make([]linalg.Vec3, len(verts))
	shift := linalg.Vec3{3, 0, -2}
	for j := range cm.Joints {
		cm.Joints[j].Head = cm.Joints[j].Head.Scale(100).Add(shift)
	}
	for i, v := range verts {
		ref[i] = v.Scale(100).Add(shift)
	}
	if _, _, err := PlaceSkeleton(cm, verts, false, nil); !errors.Is(err, ErrSkeletonPlacement) || !strings.Contains(err.Error(), "--fit-skeleton") {
		t.Errorf("centimetres: %v", err)
	}
	back, pl, err := PlaceSkeleton(cm, verts, true, ref)
	if err != nil {
		t.Fatal(err)
	}
	for j := range back.Joints {
		if d := back.Joints[j].Head.Dist(truth.Skeleton.Joints[j].Head); d > 1e-9 {
			t.Fatalf("joint %d off by %g (scale %g)", j, d, pl.Scale)
		}
	}
	if _, _, err := PlaceSkeleton(cm, verts, true, nil); err != nil {
		t.Errorf("fitted by the joints' box: %v", err)
	}
	far := rig.Skeleton{Joints: append([]rig.Joint(nil), truth.Skeleton.Joints...)}
	far.Joints[4].Head = far.Joints[4].Head.Add(linalg.Vec3{0, 10, 0})
	if _, _, err := PlaceSkeleton(far, verts, false, nil); err == nil || !strings.Contains(err.Error(), `"head"`) {
		t.Errorf("far joint: %v", err)
	}
}
