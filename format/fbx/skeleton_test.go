package fbx

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/internal/shareddata"
	"github.com/meshrig/meshrig/linalg"
)

// unskinned drops tinyRig's skin: its Deformer objects and every
// connection that names one.
func unskinned(version int) *Document {
	d := tinyRig(version)
	gone := map[int64]bool{}
	for _, top := range d.Nodes {
		switch top.Name {
		case "Objects":
			kept := top.Children[:0]
			for _, o := range top.Children {
				if o.Name == "Deformer" {
					gone[o.Props[0].Int] = true
					continue
				}
				kept = append(kept, o)
			}
			top.Children = kept
		case "Connections":
			kept := top.Children[:0]
			for _, c := range top.Children {
				if !gone[c.Props[1].Int] && !gone[c.Props[2].Int] {
					kept = append(kept, c)
				}
			}
			top.Children = kept
		}
	}
	return d
}

// TestTinySkeletonWithoutSkin: bones that move an unskinned mesh are
// read as Scene.Skeleton and its clips (no Rig): hip at the origin, arm at
// (1,0,0) from the bind pose, and at the last frame the arm's skin
// matrix turns (2,0,0) 90° about Z around its head, to (1,1,0).
func TestTinySkeletonWithoutSkin(t *testing.T) {
	sc := readTiny(t, unskinned(7400), 0, format.SceneOptions{})
	if sc.Rig != nil {
		t.Fatal("a rig from a file without a skin")
	}
	sk := sc.Skeleton
	if sk == nil || sk.Len() != 2 || sk.Joints[0].Name != "hip" || sk.Joints[1].Name != "arm" ||
		sk.Joints[1].Parent != 0 || sk.Joints[1].Head != (linalg.Vec3{1, 0, 0}) {
		t.Fatalf("skeleton %+v", sk)
	}
	if len(sc.SkeletonClips) != 1 || sc.SkeletonClips[0].Frames != 31 || sc.SkeletonClips[0].Name != "wave" {
		t.Fatalf("clips %+v, want wave of 31 frames", sc.SkeletonClips)
	}
	c := &sc.SkeletonClips[0]
	if err := c.Validate(sk.Len()); err != nil {
		t.Fatal(err)
	}
	mats := sk.SkinMatrices(sk.Pose(c, 30, nil), nil)
	if got := mats[1].Apply(linalg.Vec3{2, 0, 0}); got.Dist(linalg.Vec3{1, 1, 0}) > 1e-12 {
		t.Errorf("arm at the last frame moves (2,0,0) to %v, want (1,1,0)", got)
	}
	if got := mats[0].Apply(linalg.Vec3{0, 1, 0}); got.Dist(linalg.Vec3{0, 1, 0}) > 1e-12 {
		t.Errorf("the still hip moves (0,1,0) to %v", got)
	}
	// The unskinned mesh itself stays in place.
	if got := sc.Sequence.FrameInto(nil, 30)[2]; got.Dist(linalg.Vec3{2, 0, 0}) > 1e-12 {
		t.Errorf("unskinned vertex 2 moved to %v", got)
	}
}

// TestRealSkeletonWithoutSkin: Bone_Trans.fbx (mesh + animated skeleton,
// no skin) gives Bone_All.fbx's joints — same names, heads, and per-frame
// skin matrices over its 400 frames.
func TestRealSkeletonWithoutSkin(t *testing.T) {
	trans, err := format.ReadScene(shareddata.Path(t, filepath.Join("dembones", "Bone_Trans.fbx")), format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	all, err := format.ReadScene(shareddata.Path(t, filepath.Join("dembones", "Bone_All.fbx")), format.SceneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sk, r := trans.Skeleton, all.Rig
	if trans.Rig != nil || sk == nil || r == nil {
		t.Fatalf("Bone_Trans: rig %v, skeleton %v; Bone_All: rig %v", trans.Rig != nil, sk != nil, r != nil)
	}
	if sk.Len() != r.Skeleton.Len() || len(trans.SkeletonClips) != 1 || trans.SkeletonClips[0].Frames != 400 {
		t.Fatalf("%d joints, %d clips; want %d joints and one clip of 400 frames", sk.Len(), len(trans.SkeletonClips), r.Skeleton.Len())
	}
	byName := map[string]int{}
	for j, jt := range r.Skeleton.Joints {
		byName[jt.Name] = j
	}
	worst := 0.0
	var pa, pb, ma, mb []linalg.Affine
	for f := 0; f < 400; f++ {
		pa = sk.Pose(&trans.SkeletonClips[0], f, pa)
		ma = sk.SkinMatrices(pa, ma)
		pb = r.Skeleton.Pose(&r.Clips[0], f, pb)
		mb = r.Skeleton.SkinMatrices(pb, mb)
		for j, jt := range sk.Joints {
			k, ok := byName[jt.Name]
			if !ok {
				t.Fatalf("joint %q is not in Bone_All.fbx", jt.Name)
			}
			if f == 0 && jt.Head.Dist(r.Skeleton.Joints[k].Head) > 1e-9 {
				t.Errorf("joint %q head %v, Bone_All's %v", jt.Name, jt.Head, r.Skeleton.Joints[k].Head)
			}
			for _, p := range []linalg.Vec3{{}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}} {
				worst = math.Max(worst, ma[j].Apply(p).Dist(mb[k].Apply(p)))
			}
		}
	}
	if worst > 1e-6 {
		t.Errorf("skin matrices differ from Bone_All's by up to %g", worst)
	}
	t.Logf("7 joints, 400 frames; skin matrices within %.3g of Bone_All's", worst)
}
