package fbx

import (
	"bytes"
	"fmt"
	"testing/fstest"

	"github.com/meshrig/meshrig/format"
)

// ExampleReadScene reads a small skinned file: two joints, an arm that
// turns 90° in a second, sampled at the file's 30 fps.
func ExampleReadScene() {
	fsys := fstest.MapFS{"arm.fbx": {Data: encode(tinyRig(7400), 0)}}
	sc, err := ReadScene(fsys, "arm.fbx", format.SceneOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	c := sc.Sequence.Clips[0]
	fmt.Printf("%d vertices, clip %q: %d frames at %g fps\n", len(sc.Mesh.Verts), c.Name, c.Len(), c.FPS)
	fmt.Printf("joints %s, %s; vertex 3 ends at %.3f\n", sc.Rig.Skeleton.Joints[0].Name, sc.Rig.Skeleton.Joints[1].Name, sc.Sequence.Frame(30)[2])
	// Output:
	// 5 vertices, clip "wave": 31 frames at 30 fps
	// joints hip, arm; vertex 3 ends at [1.000 1.000 0.000]
}

// ExampleDecode reads the node records alone.
func ExampleDecode() {
	doc, err := Decode(encode(tinyRig(7500), 0))
	if err != nil {
		fmt.Println(err)
		return
	}
	objects := doc.Find("Objects")
	fmt.Println(doc.Version, len(objects.Children), objects.Children[0].Name)
	// Output: 7500 12 Geometry
}

// ExampleWrite writes a rig as FBX and reads it back.
func ExampleWrite() {
	sc, err := ReadScene(fstest.MapFS{"arm.fbx": {Data: encode(tinyRig(7400), 0)}}, "arm.fbx", format.SceneOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var buf bytes.Buffer
	if err := Write(&buf, sc.Rig, format.WriteOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	back, err := ReadScene(fstest.MapFS{"out.fbx": {Data: buf.Bytes()}}, "out.fbx", format.SceneOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d joints, clip %q of %d frames; vertex 3 ends at %.3f\n", back.Rig.Skeleton.Len(),
		back.Rig.Clips[0].Name, back.Rig.Clips[0].Frames, back.Sequence.Frame(30)[2])
	// Output: 2 joints, clip "wave" of 31 frames; vertex 3 ends at [1.000 1.000 0.000]
}
