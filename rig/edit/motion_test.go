package edit

import (
	"reflect"
	"testing"

	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// eachFrame calls fn for every clip and frame of r.
func eachFrame(r *rig.Rig, fn func(c, f int)) {
	for c := range r.Clips {
		for f := 0; f < r.Clips[c].Frames; f++ {
			fn(c, f)
		}
	}
}

// sameTrack reports whether joint a of clip c of ra and joint b of rb's
// have bit-identical rotations and translations in every frame.
func sameTrack(ra *rig.Rig, a rig.JointID, rb *rig.Rig, b rig.JointID, c int) bool {
	na, nb := ra.Skeleton.Len(), rb.Skeleton.Len()
	ca, cb := &ra.Clips[c], &rb.Clips[c]
	for f := 0; f < ca.Frames; f++ {
		if ca.Rotation[f*na+int(a)] != cb.Rotation[f*nb+int(b)] || ca.Translation[f*na+int(a)] != cb.Translation[f*nb+int(b)] {
			return false
		}
	}
	return true
}

// TestSplitBoneKeepsEveryJoint splits every bone of the biped: the new
// joint takes the child's id, lies on the bone, has no weight and the
// identity local rotation; every old joint's global transform stays
// within 1e-12, and joints outside the child's subtree keep their tracks
// bit for bit.
func TestSplitBoneKeepsEveryJoint(t *testing.T) {
	in := biped(t)
	d := mesh.Diagonal(in.Mesh.Verts)
	for c := 1; c < in.Skeleton.Len(); c++ {
		child := rig.JointID(c)
		out, id, err := SplitBone(in, child, 0.3)
		if err != nil {
			t.Fatal(err)
		}
		if id != child {
			t.Fatalf("split above %d: new joint %d, want the child's id", c, id)
		}
		nj := out.Skeleton.Joints[id]
		par := in.Skeleton.Joints[c].Parent
		want := in.Skeleton.Joints[par].Head.Lerp(in.Skeleton.Joints[c].Head, 0.3)
		if nj.Parent != par || nj.Head.Dist(want) > 1e-15 || out.Skeleton.Joints[id+1].Parent != id || nj.Name != "joint_01" {
			t.Fatalf("split above %d: new joint %+v, want %v under %d and over the child", c, nj, want, par)
		}
		for _, infl := range out.Skin {
			for k, w := range infl.Weight {
				if w > 0 && infl.Joint[k] == id {
					t.Fatal("the new joint has weight")
				}
			}
		}
		below := subtree(in, child)
		eachFrame(in, func(cl, f int) {
			if q := out.Clips[cl].Rotation[f*out.Skeleton.Len()+int(id)]; q != linalg.IdentityQuat {
				t.Fatalf("split above %d: new joint's rotation %v", c, q)
			}
			g := in.Skeleton.Pose(&in.Clips[cl], f, nil)
			h := out.Skeleton.Pose(&out.Clips[cl], f, nil)
			for k := range in.Skeleton.Joints {
				nk := k
				if k >= c {
					nk++
				}
				if rot, head := affineDiff(g[k], h[nk], d); rot > 1e-12 || head > 1e-12 {
					t.Fatalf("split above %d: joint %d moved by %g (rotation), %g·d (head) at frame %d", c, k, rot, head, f)
				}
			}
		})
		for k := range in.Skeleton.Joints {
			nk := rig.JointID(k)
			if k >= c {
				nk++
			}
			if !below[k] && !sameTrack(in, rig.JointID(k), out, nk, 0) {
				t.Errorf("split above %d: track of joint %d outside the bone changed", c, k)
			}
		}
	}
}

// TestAddChildFollowsParent: a leaf added under the biped's wrist turns
// and travels with it (its global transform is the wrist's moved to its
// head), and every old track is kept bit for bit.
func TestAddChildFollowsParent(t *testing.T) {
	in := biped(t)
	wrist := byName(t, in, "wrist_l")
	head := linalg.Vec3{0.86, 1.48, 0}
	out, id, err := AddChild(in, wrist, head)
	if err != nil {
		t.Fatal(err)
	}
	if int(id) != in.Skeleton.Len() || out.Skeleton.Joints[id].Parent != wrist {
		t.Fatalf("new joint %d under %d", id, out.Skeleton.Joints[id].Parent)
	}
	off := head.Sub(in.Skeleton.Joints[wrist].Head)
	eachFrame(in, func(c, f int) {
		g := in.Skeleton.Pose(&in.Clips[c], f, nil)[wrist]
		got := out.Skeleton.Pose(&out.Clips[c], f, nil)[id]
		if got.M != g.M || got.T.Dist(g.Apply(off)) > 1e-12 {
			t.Fatalf("frame %d: new joint at %v, want %v", f, got.T, g.Apply(off))
		}
	})
	for k := range in.Skeleton.Joints {
		if !sameTrack(in, rig.JointID(k), out, rig.JointID(k), 0) {
			t.Errorf("track of joint %d changed", k)
		}
	}
}

// TestMoveJoint moves the biped's root (every joint's global transform
// kept but the root's, whose head goes where its old motion takes the new
// head), a rigid inner joint (its subtree shifts by (R_parent − R_j)·δ
// per frame, all rotations kept, the rest untouched bit for bit) and a
// weightless leaf (playback kept).
func TestMoveJoint(t *testing.T) {
	in := biped(t)
	t.Run("root", func(t *testing.T) {
		head := linalg.Vec3{0.05, 1.1, 0.02}
		out, err := MoveJoint(in, 0, head)
		if err != nil {
			t.Fatal(err)
		}
		delta := head.Sub(in.Skeleton.Joints[0].Head)
		eachFrame(in, func(c, f int) {
			g := in.Skeleton.Pose(&in.Clips[c], f, nil)
			h := out.Skeleton.Pose(&out.Clips[c], f, nil)
			if h[0].M != g[0].M || h[0].T.Dist(g[0].Apply(delta)) > 1e-12 {
				t.Fatalf("frame %d: root at %v, want %v", f, h[0].T, g[0].Apply(delta))
			}
			for k := 1; k < len(g); k++ {
				if rot, d := globalDiff(in, rig.JointID(k), out, rig.JointID(k), c, f); rot > 1e-12 || d > 1e-12 {
					t.Fatalf("frame %d: joint %d moved", f, k)
				}
			}
		})
	})
	t.Run("elbow", func(t *testing.T) {
		j := byName(t, in, "elbow_l")
		p := in.Skeleton.Joints[j].Parent
		head := in.Skeleton.Joints[j].Head.Add(linalg.Vec3{0.02, -0.02, -0.03})
		delta := head.Sub(in.Skeleton.Joints[j].Head)
		out, err := MoveJoint(in, j, head)
		if err != nil {
			t.Fatal(err)
		}
		below := subtree(in, j)
		eachFrame(in, func(c, f int) {
			g := in.Skeleton.Pose(&in.Clips[c], f, nil)
			h := out.Skeleton.Pose(&out.Clips[c], f, nil)
			shift := g[p].M.MulVec(delta).Sub(g[j].M.MulVec(delta))
			for k := range g {
				want := g[k].T
				switch {
				case rig.JointID(k) == j:
					want = g[p].Apply(head.Sub(in.Skeleton.Joints[p].Head))
				case below[k]:
					want = want.Add(shift)
				}
				rot, _ := globalDiff(in, rig.JointID(k), out, rig.JointID(k), c, f)
				if rot > 1e-12 || h[k].T.Dist(want) > 1e-12 {
					t.Fatalf("frame %d joint %d: head %v, want %v (rotation off by %g)", f, k, h[k].T, want, rot)
				}
			}
		})
		for k := range in.Skeleton.Joints {
			if !below[k] && !sameTrack(in, rig.JointID(k), out, rig.JointID(k), 0) {
				t.Errorf("track of joint %d outside the elbow's subtree changed", k)
			}
		}
	})
	t.Run("weightless leaf", func(t *testing.T) {
		tip, id, err := AddChild(in, byName(t, in, "wrist_l"), linalg.Vec3{0.86, 1.48, 0})
		if err != nil {
			t.Fatal(err)
		}
		out, err := MoveJoint(tip, id, linalg.Vec3{0.8, 1.6, 0.1})
		if err != nil {
			t.Fatal(err)
		}
		if d := playback(in, out); d > 1e-9 {
			t.Errorf("playback moved by %.3g·d", d)
		}
	})
}

// TestRemoveJoint removes the biped's left elbow: its weights join the
// shoulder's, every joint keeps its global rotation, joints and vertices
// away from the elbow's subtree keep their motion; and the tube's root,
// which has one child: that child becomes the root with its own motion.
func TestRemoveJoint(t *testing.T) {
	in := biped(t)
	j := byName(t, in, "elbow_l")
	sh, wrist := byName(t, in, "shoulder_l"), byName(t, in, "wrist_l")
	out, ids, err := RemoveJoint(in, j)
	if err != nil {
		t.Fatal(err)
	}
	for k := range ids {
		want := rig.JointID(k)
		switch {
		case k == int(j):
			want = Removed
		case k > int(j):
			want--
		}
		if ids[k] != want {
			t.Fatalf("ids %v", ids)
		}
	}
	if out.Skeleton.Joints[ids[wrist]].Parent != ids[sh] {
		t.Fatal("the wrist does not hang from the shoulder")
	}
	weight := func(in rig.Influence, j rig.JointID) float64 {
		for k, w := range in.Weight {
			if w > 0 && in.Joint[k] == j {
				return w
			}
		}
		return 0
	}
	near := subtree(in, j)
	touched := make([]bool, len(in.Skin)) // weighted to the elbow or below
	for i := range in.Skin {
		for k := range in.Skeleton.Joints {
			w := weight(in.Skin[i], rig.JointID(k))
			touched[i] = touched[i] || (w > 0 && near[k])
			if k == int(j) {
				continue
			}
			want := w
			if k == int(sh) {
				want += weight(in.Skin[i], j)
			}
			if got := weight(out.Skin[i], ids[k]); got < want-1e-12 || got > want+1e-12 {
				t.Fatalf("vertex %d: weight %v of joint %d, want %v", i, got, k, want)
			}
		}
	}
	eachFrame(in, func(c, f int) {
		for k := range in.Skeleton.Joints {
			if k == int(j) {
				continue
			}
			rot, head := globalDiff(in, rig.JointID(k), out, ids[k], c, f)
			if rot > 1e-12 || (!near[k] && head > 1e-12) {
				t.Fatalf("frame %d joint %d moved: %g, %g·d", f, k, rot, head)
			}
		}
		a, b := in.Frame(nil, c, f), out.Frame(nil, c, f)
		for i := range a {
			if !touched[i] && a[i].Dist(b[i]) > 1e-12 {
				t.Fatalf("frame %d: vertex %d away from the elbow moved", f, i)
			}
		}
	})

	t.Run("root with one child", func(t *testing.T) {
		in := tube(t)
		out, ids, err := RemoveJoint(in, 0)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ids, []rig.JointID{Removed, 0, 1}) || out.Skeleton.Joints[0].Name != "b" {
			t.Fatalf("ids %v, root %s", ids, out.Skeleton.Joints[0].Name)
		}
		eachFrame(in, func(c, f int) {
			for k := 1; k < 3; k++ {
				if rot, head := globalDiff(in, rig.JointID(k), out, ids[k], c, f); rot > 1e-12 || head > 1e-12 {
					t.Fatalf("frame %d: joint %d moved", f, k)
				}
			}
			a, b := in.Frame(nil, c, f), out.Frame(nil, c, f)
			for i := range a {
				if weight(in.Skin[i], 0) == 0 && a[i].Dist(b[i]) > 1e-12 {
					t.Fatalf("frame %d: vertex %d not weighted to the root moved", f, i)
				}
			}
		})
	})
}

// TestReparentRoundTrip moves the biped's wrist under its chest (every
// global rotation kept, the wrist at its rest offset from the chest) and
// back: the rig returns within 1e-12. The spine under a hip needs joints
// renumbered; back under the pelvis, the same rig by name.
func TestReparentRoundTrip(t *testing.T) {
	in := biped(t)
	for _, tc := range []struct{ joint, parent string }{{"wrist_l", "chest"}, {"spine", "hip_l"}, {"hip_r", "knee_l"}} {
		t.Run(tc.joint, func(t *testing.T) {
			j, p := byName(t, in, tc.joint), byName(t, in, tc.parent)
			old := in.Skeleton.Joints[j].Parent
			mid, ids, err := Reparent(in, j, p)
			if err != nil {
				t.Fatal(err)
			}
			if mid.Skeleton.Joints[ids[j]].Parent != ids[p] {
				t.Fatal("not reparented")
			}
			off := in.Skeleton.Joints[j].Head.Sub(in.Skeleton.Joints[p].Head)
			eachFrame(in, func(c, f int) {
				g := in.Skeleton.Pose(&in.Clips[c], f, nil)
				h := mid.Skeleton.Pose(&mid.Clips[c], f, nil)
				for k := range g {
					if rot, _ := globalDiff(in, rig.JointID(k), mid, ids[k], c, f); rot > 1e-12 {
						t.Fatalf("frame %d: joint %d turned by %g", f, k, rot)
					}
				}
				if want := g[p].Apply(off); h[ids[j]].T.Dist(want) > 1e-12 {
					t.Fatalf("frame %d: joint at %v, want %v", f, h[ids[j]].T, want)
				}
			})
			back, ids2, err := Reparent(mid, ids[j], ids[old])
			if err != nil {
				t.Fatal(err)
			}
			for k := range in.Skeleton.Joints {
				a, b := in.Skeleton.Joints[k], back.Skeleton.Joints[ids2[ids[k]]]
				if a.Name != b.Name || a.Head != b.Head || (a.Parent != rig.NoParent && back.Skeleton.Joints[b.Parent].Name != in.Skeleton.Joints[a.Parent].Name) {
					t.Fatalf("joint %d came back as %+v", k, b)
				}
				eachFrame(in, func(c, f int) {
					n := in.Skeleton.Len()
					qa, qb := in.Clips[c].Rotation[f*n+k], back.Clips[c].Rotation[f*n+int(ids2[ids[k]])]
					ta, tb := in.Clips[c].Translation[f*n+k], back.Clips[c].Translation[f*n+int(ids2[ids[k]])]
					if 1-qa.Dot(qb) > 1e-12 || ta.Dist(tb) > 1e-12 {
						t.Fatalf("frame %d joint %d: %v %v came back as %v %v", f, k, qa, ta, qb, tb)
					}
				})
			}
			for i := range in.Skin {
				for s := range in.Skin[i].Joint {
					if w := in.Skin[i].Weight[s]; w > 0 && (back.Skin[i].Weight[s] != w || back.Skin[i].Joint[s] != ids2[ids[in.Skin[i].Joint[s]]]) {
						t.Fatalf("vertex %d came back as %+v", i, back.Skin[i])
					}
				}
			}
		})
	}
}

// TestSetRoot re-roots the biped at its left knee: the knee becomes joint
// 0 and moves as before, the path's links reverse, heads and every global
// rotation are kept. Re-rooting at the root gives the rig back bit for bit.
func TestSetRoot(t *testing.T) {
	in := biped(t)
	knee, hip := byName(t, in, "knee_l"), byName(t, in, "hip_l")
	out, ids, err := SetRoot(in, knee)
	if err != nil {
		t.Fatal(err)
	}
	if ids[knee] != 0 {
		t.Fatalf("knee is joint %d", ids[knee])
	}
	for k, jt := range in.Skeleton.Joints {
		want := jt.Parent
		switch rig.JointID(k) {
		case knee:
			want = rig.NoParent
		case hip:
			want = knee
		case 0:
			want = hip
		}
		got := out.Skeleton.Joints[ids[k]].Parent
		if (want == rig.NoParent) != (got == rig.NoParent) || (got != rig.NoParent && got != ids[want]) {
			t.Errorf("joint %d (%s): parent %d, want old %d", k, jt.Name, got, want)
		}
	}
	eachFrame(in, func(c, f int) {
		for k := range in.Skeleton.Joints {
			rot, head := globalDiff(in, rig.JointID(k), out, ids[k], c, f)
			if rot > 1e-12 || (rig.JointID(k) == knee && head > 1e-12) {
				t.Fatalf("frame %d joint %d: %g, %g·d", f, k, rot, head)
			}
		}
	})
	same, ids, err := SetRoot(in, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(same, in) || !reflect.DeepEqual(ids, identity(in.Skeleton.Len())) {
		t.Error("re-rooting at the root changed the rig")
	}
}

// TestRenameKeepsAll: a renamed rig differs from its input in that name
// only — skin and clips bit for bit.
func TestRenameKeepsAll(t *testing.T) {
	in := biped(t)
	out, err := Rename(in, 4, "skull")
	if err != nil {
		t.Fatal(err)
	}
	want := clone(in)
	want.Mesh = in.Mesh
	want.Skeleton.Joints[4].Name = "skull"
	if !reflect.DeepEqual(out, want) {
		t.Error("rename changed more than the name")
	}
}

// used returns skin with its unused slots on joint 0, as edits write
// them (rig.NewFree leaves them on joint 1).
func used(skin rig.Skin) rig.Skin {
	out := append(rig.Skin(nil), skin...)
	for i := range out {
		for k, w := range out[i].Weight {
			if w == 0 {
				out[i].Joint[k] = 0
			}
		}
	}
	return out
}

// TestUndoByRemove: removing the joint a split or an add made gives the
// rig back — after an add bit for bit, after a split with every track
// within 1e-12 (the rest bit for bit) — on the biped, the free form and
// the placed tube.
func TestUndoByRemove(t *testing.T) {
	for _, mk := range []func(testing.TB) *rig.Rig{biped, free, placed} {
		in := mk(t)
		n := in.Skeleton.Len()
		for c := 1; c < n; c++ {
			mid, id, err := SplitBone(in, rig.JointID(c), 0.6)
			if err != nil {
				t.Fatal(err)
			}
			back, _, err := RemoveJoint(mid, id)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back.Skeleton, in.Skeleton) || !reflect.DeepEqual(back.Skin, used(in.Skin)) {
				t.Fatalf("%s: split and remove above joint %d changed the skeleton or skin", in.Skeleton.Joints[0].Name, c)
			}
			for cl := range in.Clips {
				a, b := &in.Clips[cl], &back.Clips[cl]
				for k := range a.Rotation {
					if 1-a.Rotation[k].Dot(b.Rotation[k]) > 1e-12 || a.Translation[k].Dist(b.Translation[k]) > 1e-12 {
						t.Fatalf("%s: split and remove above joint %d: track %d frame %d changed", in.Skeleton.Joints[0].Name, c, k%n, k/n)
					}
				}
			}
			leaf, id, err := AddChild(in, rig.JointID(c), linalg.Vec3{0.1, 0.2, 0.3})
			if err != nil {
				t.Fatal(err)
			}
			want := *in
			want.Skin = used(in.Skin)
			if back, _, err = RemoveJoint(leaf, id); err != nil || !reflect.DeepEqual(back, &want) {
				t.Fatalf("%s: add and remove under joint %d: %v, or the rig changed", in.Skeleton.Joints[0].Name, c, err)
			}
		}
	}
}
