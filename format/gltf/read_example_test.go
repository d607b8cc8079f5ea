package gltf_test

import (
	"fmt"
	"os"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/gltf"
	"github.com/meshrig/meshrig/metric"
)

// ExampleReadScene reads a small skinned arm and checks its own rig
// against the sampled frames.
func ExampleReadScene() {
	sc, err := gltf.ReadScene(os.DirFS("testdata"), "arm.glb", format.SceneOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := sc.Sequence
	fmt.Printf("%d vertices, %d frames; clip %q at %v fps\n", s.N(), s.F(), s.Clips[0].Name, s.Clips[0].FPS)
	for _, j := range sc.Rig.Skeleton.Joints {
		fmt.Printf("joint %s at %v\n", j.Name, j.Head)
	}
	rep, _ := metric.Compare(s, sc.Rig)
	fmt.Println("the file's rig replays every frame:", rep.MaxPercent < 1e-4) // float32 frames: their rounding
	// Output:
	// 12 vertices, 3 frames; clip "bend" at 1 fps
	// joint base at [0 0 0]
	// joint arm at [1 0 0]
	// the file's rig replays every frame: true
}
