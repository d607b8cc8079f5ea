package fbx

import (
	"math"
	"os"
	"testing"

	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/linalg"
)

// TestTransformChain: each link of T·Roff·Rp·Rpre·R·Rpost⁻¹·Rp⁻¹·Soff·Sp·S·Sp⁻¹
// against answers worked out by hand.
func TestTransformChain(t *testing.T) {
	one := linalg.Vec3{1, 1, 1}
	for _, tc := range []struct {
		name string
		x    Transform
		in   linalg.Vec3
		want linalg.Vec3
	}{
		{"rotation about a pivot, then translation", Transform{Translation: linalg.Vec3{0, 0, 5}, Rotation: linalg.Vec3{0, 0, 90}, RotationPivot: linalg.Vec3{1, 0, 0}, Scaling: one},
			linalg.Vec3{2, 0, 0}, linalg.Vec3{1, 1, 5}},
		{"pre-rotation after the rotation", Transform{PreRotation: linalg.Vec3{90, 0, 0}, Rotation: linalg.Vec3{0, 0, 90}, Scaling: one},
			linalg.Vec3{1, 0, 0}, linalg.Vec3{0, 0, 1}},
		{"post-rotation inverted", Transform{PostRotation: linalg.Vec3{0, 0, 90}, Rotation: linalg.Vec3{0, 0, 90}, Scaling: one},
			linalg.Vec3{1, 2, 3}, linalg.Vec3{1, 2, 3}},
		{"XYZ applies X first", Transform{Rotation: linalg.Vec3{90, 0, 90}, Scaling: one},
			linalg.Vec3{0, 1, 0}, linalg.Vec3{0, 0, 1}},
		{"ZYX applies Z first", Transform{Rotation: linalg.Vec3{90, 0, 90}, Order: ZYX, Scaling: one},
			linalg.Vec3{0, 1, 0}, linalg.Vec3{-1, 0, 0}},
		{"YZX", Transform{Rotation: linalg.Vec3{0, 90, 90}, Order: YZX, Scaling: one},
			linalg.Vec3{1, 0, 0}, linalg.Vec3{0, 0, -1}},
		{"scaling about its pivot", Transform{Scaling: linalg.Vec3{2, 2, 2}, ScalingPivot: linalg.Vec3{1, 0, 0}},
			linalg.Vec3{2, 0, 0}, linalg.Vec3{3, 0, 0}},
		{"offsets", Transform{RotationOffset: linalg.Vec3{0, 1, 0}, ScalingOffset: linalg.Vec3{0, 0, 1}, Scaling: linalg.Vec3{3, 1, 1}},
			linalg.Vec3{1, 0, 0}, linalg.Vec3{3, 1, 1}},
		{"rotation pivot and scaling together", Transform{Rotation: linalg.Vec3{0, 0, 180}, RotationPivot: linalg.Vec3{1, 0, 0}, Scaling: linalg.Vec3{2, 1, 1}},
			linalg.Vec3{1, 0, 0}, linalg.Vec3{0, 0, 0}},
	} {
		if got := tc.x.Local().Apply(tc.in); got.Dist(tc.want) > 1e-12 {
			t.Errorf("%s: %v → %v, want %v", tc.name, tc.in, got, tc.want)
		}
	}
	g := Transform{GeometricTranslation: linalg.Vec3{1, 0, 0}, GeometricRotation: linalg.Vec3{0, 0, 90}, GeometricScale: linalg.Vec3{2, 2, 2}}
	if got := g.Geometric().Apply(linalg.Vec3{1, 0, 0}); got.Dist(linalg.Vec3{1, 2, 0}) > 1e-12 {
		t.Errorf("geometric: %v, want (1,2,0)", got)
	}
}

// TestEulerOrders: every order's matrix is the product of its axis
// rotations, last axis leftmost, and a proper rotation.
func TestEulerOrders(t *testing.T) {
	deg := linalg.Vec3{30, -50, 70}
	names := []string{"XYZ", "XZY", "YZX", "YXZ", "ZXY", "ZYX"}
	for o := XYZ; o <= ZYX; o++ {
		a := o.axes()
		want := axisMat3(a[2], deg[a[2]]*math.Pi/180).Mul(axisMat3(a[1], deg[a[1]]*math.Pi/180)).Mul(axisMat3(a[0], deg[a[0]]*math.Pi/180))
		got := EulerMat3(deg, o)
		if names[o][0] != "XYZ"[a[0]] || names[o][2] != "XYZ"[a[2]] {
			t.Errorf("order %d is not %s", o, names[o])
		}
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				if math.Abs(got[i][j]-want[i][j]) > 1e-15 {
					t.Fatalf("%s: %v, want %v", names[o], got, want)
				}
			}
		}
		if math.Abs(got.Det()-1) > 1e-12 {
			t.Errorf("%s: det %v", names[o], got.Det())
		}
	}
}

// TestBindPoseMatchesTransforms: on Maya's files the models' transform
// chains at rest (translations, joint orients, inherit types) give the
// BindPose matrices and clusters' TransformLink Maya wrote.
func TestBindPoseMatchesTransforms(t *testing.T) {
	for _, name := range []string{"Bone_Skin.fbx", "Decomposition_05.fbx", "Bone_Helpers.fbx"} {
		path := shareddata.Path(t, "dembones/"+name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s, err := load(data)
		if err != nil {
			t.Fatal(err)
		}
		pose, err := bindPose(s.file)
		if err != nil {
			t.Fatal(err)
		}
		g := s.h.globals(s.h.rest, nil)
		checked := 0
		for id, m := range pose {
			mi, ok := s.h.index[id]
			if !ok {
				continue
			}
			a, b := g[mi].Mat4(), m.Mat4()
			for k := range a {
				if math.Abs(a[k]-b[k]) > 1e-5 {
					t.Errorf("%s: model %q rest global %v, bind pose %v", name, s.h.models[mi].Name, a, b)
					break
				}
			}
			checked++
		}
		if checked < 5 {
			t.Errorf("%s: only %d bind pose matrices checked", name, checked)
		}
	}
}
