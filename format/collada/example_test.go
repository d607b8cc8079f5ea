package collada_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/collada"
	"github.com/meshrig/meshrig/linalg"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

// A quad skinned to two joints, with a one-frame clip.
func ExampleWrite() {
	m, _ := mesh.New([]linalg.Vec3{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}}, [][]int{{0, 1, 2, 3}})
	sk := rig.Skeleton{Joints: []rig.Joint{
		{Name: "hip", Parent: rig.NoParent},
		{Name: "knee.L", Parent: 0, Head: linalg.Vec3{1, 0, 0}},
	}}
	skin := rig.Skin{
		{Weight: [4]float64{1}}, {Joint: [4]rig.JointID{1}, Weight: [4]float64{1}},
		{Joint: [4]rig.JointID{1}, Weight: [4]float64{1}}, {Weight: [4]float64{1}},
	}
	r := &rig.Rig{Mesh: m, Skeleton: sk, Skin: skin, Clips: []rig.Clip{rig.NewClip(&sk, "idle", 30, 1)}}
	var buf bytes.Buffer
	if err := collada.Write(&buf, r, format.WriteOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range strings.Split(buf.String(), "\n") {
		if strings.Contains(line, "<vcount>") || strings.Contains(line, `type="JOINT"`) || strings.Contains(line, "target=") {
			fmt.Println(strings.TrimSpace(line))
		}
	}
	// Output:
	// <vcount>4</vcount>
	// <vcount>1 1 1 1</vcount>
	// <channel source="#idle-hip-sampler" target="hip/transform"></channel>
	// <channel source="#idle-knee_L-sampler" target="knee_L/transform"></channel>
	// <node id="hip" sid="hip" name="hip" type="JOINT">
	// <node id="knee_L" sid="knee_L" name="knee.L" type="JOINT">
}
