package usd_test

import (
	"bytes"
	"fmt"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/usd"
)

// A generated snake written as a .usda layer and read back.
func Example() {
	r, err := character.Generate(character.Snake, character.Options{Frames: 4, Vertices: 500})
	if err != nil {
		panic(err)
	}
	var layer bytes.Buffer
	if err := usd.Write(&layer, r, format.WriteOptions{}); err != nil {
		panic(err)
	}
	back, err := usd.Read(&layer)
	if err != nil {
		panic(err)
	}
	fmt.Println(back.Skeleton.Len(), "joints,", len(back.Clips), "clip of", back.Clips[0].Frames, "frames")
	fmt.Println(back.Skeleton.Joints[1].Name == r.Skeleton.Joints[1].Name, len(back.Mesh.Verts) == len(r.Mesh.Verts))
	// Output:
	// 12 joints, 1 clip of 4 frames
	// true true
}
