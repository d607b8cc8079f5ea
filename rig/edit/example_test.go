package edit_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/rig/edit"
)

// A viewer sends an edit as JSON; the id map keeps its selection.
func ExampleApply() {
	r, err := character.Generate(character.Biped, character.Options{Vertices: 1500, Frames: 4})
	if err != nil {
		log.Fatal(err)
	}
	var op edit.Op
	if err := json.Unmarshal([]byte(`{"kind": "remove", "joint": 6}`), &op); err != nil {
		log.Fatal(err)
	}
	out, ids, err := edit.Apply(r, op)
	if err != nil {
		log.Fatal(err)
	}
	wrist := ids[7]
	fmt.Println(r.Skeleton.Joints[6].Name, "removed:", ids[6] == edit.Removed)
	fmt.Println(out.Skeleton.Joints[wrist].Name, "is joint", wrist, "under", out.Skeleton.Joints[out.Skeleton.Joints[wrist].Parent].Name)

	_, _, err = edit.Apply(out, edit.Op{Kind: "remove", Joint: 0})
	fmt.Println(err)
	// Output:
	// elbow_l removed: true
	// wrist_l is joint 6 under shoulder_l
	// remove joint 0 (pelvis): the root has 3 children; make one of them the root first
}

// Splitting a bone adds a joint that turns with its parent: the motion
// is unchanged.
func ExampleSplitBone() {
	r, err := character.Generate(character.Snake, character.Options{Vertices: 1500, Frames: 4})
	if err != nil {
		log.Fatal(err)
	}
	out, mid, err := edit.SplitBone(r, 3, 0.5)
	if err != nil {
		log.Fatal(err)
	}
	j := out.Skeleton.Joints[mid]
	fmt.Printf("%s (joint %d) under %s, over %s\n", j.Name, mid, out.Skeleton.Joints[j.Parent].Name, out.Skeleton.Joints[mid+1].Name)
	fmt.Println(out.Skeleton.Len(), "joints, skeletal:", out.Skeletal())
	// Output:
	// joint_01 (joint 3) under segc, over segd
	// 13 joints, skeletal: true
}
