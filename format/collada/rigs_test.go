package collada

import (
	"fmt"
	"math"
	"testing"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// chainRig builds a tube of length joints along x (rings+1 rings of
// around vertices, quads or their triangle halves) skinned smoothly to a
// chain of joints with heads at x = 0, 1, …, each vertex blending the two
// nearest bone middles. Each of clips clips bends every joint about y or
// z by a different wave over frames frames and moves the root.
func chainRig(tb testing.TB, joints, rings, around, frames, clips int, quads bool) *rig.Rig {
	tb.Helper()
	L := float64(joints)
	var verts []linalg.Vec3
	for r := 0; r <= rings; r++ {
		x := L * float64(r) / float64(rings)
		for a := 0; a < around; a++ {
			th := 2 * math.Pi * float64(a) / float64(around)
			verts = append(verts, linalg.Vec3{x, 0.3 * math.Cos(th), 0.3 * math.Sin(th)})
		}
	}
	var polys [][]int
	for r := 0; r < rings; r++ {
		for a := 0; a < around; a++ {
			i0, i1 := r*around+a, r*around+(a+1)%around
			if quads {
				polys = append(polys, []int{i0, i1, i1 + around, i0 + around})
			} else {
				polys = append(polys, []int{i0, i1, i1 + around}, []int{i0, i1 + around, i0 + around})
			}
		}
	}
	m, err := mesh.New(verts, polys)
	if err != nil {
		tb.Fatal(err)
	}
	sk := rig.Skeleton{Joints: make([]rig.Joint, joints)}
	for j := range sk.Joints {
		// Names that are not NCNames exercise the ID mapping.
		sk.Joints[j] = rig.Joint{Name: fmt.Sprintf("bone.%d", j), Parent: rig.JointID(j - 1), Head: linalg.Vec3{float64(j), 0, 0}}
	}
	sk.Joints[0].Parent = rig.NoParent
	skin := make(rig.Skin, len(verts))
	for i, v := range verts {
		u := math.Min(math.Max(v[0]-0.5, 0), L-1)
		k := math.Min(math.Floor(u), L-2)
		if joints == 1 {
			skin[i] = rig.Influence{Weight: [4]float64{1}}
			continue
		}
		t := u - k
		skin[i] = rig.Influence{Joint: [4]rig.JointID{rig.JointID(k), rig.JointID(k) + 1}, Weight: [4]float64{1 - t, t}}
	}
	r := &rig.Rig{Mesh: m, Skeleton: sk, Skin: skin}
	for c := 0; c < clips; c++ {
		cl := rig.NewClip(&sk, fmt.Sprintf("clip %d", c), 24, frames)
		for f := 0; f < frames; f++ {
			for j := 0; j < joints; j++ {
				axis := linalg.Vec3{0, 0, 1}
				if (j+c)%2 == 1 {
					axis = linalg.Vec3{0, 1, 0}
				}
				cl.Rotation[f*joints+j] = linalg.QuatFromAxisAngle(axis, 0.4*math.Sin(0.3*float64(f)+float64(j+c)))
			}
			cl.Translation[f*joints] = linalg.Vec3{0.05 * float64(f), 0.1 * float64(c), 0}
		}
		r.Clips = append(r.Clips, cl)
	}
	if err := r.Validate(); err != nil {
		tb.Fatal(err)
	}
	return r
}

// freeRig is a free-form rig (rig.NewFree) over the chain's tube: a root
// carrying no weight and per-bone transforms that do not keep bones rigid.
func freeRig(tb testing.TB) *rig.Rig {
	tb.Helper()
	base := chainRig(tb, 3, 12, 8, 1, 0, true)
	const frames = 5
	var tr []linalg.Affine
	for f := 0; f < frames; f++ {
		for b := 0; b < 3; b++ {
			q := linalg.QuatFromAxisAngle(linalg.Vec3{0, 1, 1}, 0.1*float64(f*(b+1)))
			tr = append(tr, linalg.Rigid(q, linalg.Vec3{0.1 * float64(f), 0.05 * float64(b), 0}))
		}
	}
	r, err := rig.NewFree(base.Mesh, base.Skin, 3, "free", 30, frames, tr)
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// testRigs: quads with two clips, triangles with one, and a free-form rig.
func testRigs(tb testing.TB) map[string]*rig.Rig {
	return map[string]*rig.Rig{
		"quads":     chainRig(tb, 4, 16, 8, 6, 2, true),
		"triangles": chainRig(tb, 3, 9, 6, 4, 1, false),
		"free":      freeRig(tb),
	}
}
