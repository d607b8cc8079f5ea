package testrig

import (
	"testing"

	"github.com/meshrig/meshrig/rig"
)

// RemoveJoint is the edit a user makes by hand, as a test needs it before
// and independently of rig/edit: joint name goes, its
// children hang from its parent, its weights go to its parent, its track
// leaves every clip (the children keep their local rotations).
func RemoveJoint(t testing.TB, r *rig.Rig, name string) *rig.Rig {
	t.Helper()
	gone := rig.JointID(-1)
	for j, jt := range r.Skeleton.Joints {
		if jt.Name == name {
			gone = rig.JointID(j)
		}
	}
	if gone <= 0 {
		t.Fatalf("no removable joint %q", name)
	}
	parent := r.Skeleton.Joints[gone].Parent
	newID := func(j rig.JointID) rig.JointID {
		switch {
		case j == gone:
			return parent
		case j > gone:
			return j - 1
		}
		return j
	}
	out := &rig.Rig{Mesh: r.Mesh}
	for j, jt := range r.Skeleton.Joints {
		if rig.JointID(j) == gone {
			continue
		}
		if jt.Parent != rig.NoParent {
			jt.Parent = newID(jt.Parent)
		}
		out.Skeleton.Joints = append(out.Skeleton.Joints, jt)
	}
	for _, in := range r.Skin {
		var dense = map[rig.JointID]float64{}
		for k, w := range in.Weight {
			if w > 0 {
				dense[newID(in.Joint[k])] += w
			}
		}
		var o rig.Influence
		k := 0
		for j := rig.JointID(0); int(j) < out.Skeleton.Len(); j++ {
			if w, ok := dense[j]; ok {
				o.Joint[k], o.Weight[k] = j, w
				k++
			}
		}
		out.Skin = append(out.Skin, o.Normalized())
	}
	n := r.Skeleton.Len()
	for _, c := range r.Clips {
		nc := rig.Clip{Name: c.Name, FPS: c.FPS, Frames: c.Frames}
		for f := 0; f < c.Frames; f++ {
			for j := 0; j < n; j++ {
				if rig.JointID(j) != gone {
					nc.Rotation = append(nc.Rotation, c.Rotation[f*n+j])
					nc.Translation = append(nc.Translation, c.Translation[f*n+j])
				}
			}
		}
		nc.MakeRigid(&out.Skeleton)
		out.Clips = append(out.Clips, nc)
	}
	if err := out.Validate(); err != nil {
		t.Fatal(err)
	}
	return out
}
