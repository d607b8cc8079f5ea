package main

import (
	"reflect"
	"testing"

	"github.com/meshrig/meshrig/batch"
)

// TestBatchArgsAreRigFlags: the command line batch gives each item's
// child is one `meshrig rig` parses, every manifest option reaching its
// flag with its value (a renamed flag would fail every item at run time).
func TestBatchArgsAreRigFlags(t *testing.T) {
	job := batch.Job{
		Item: batch.Item{ID: "hero", Inputs: []string{"walk/", "run/*.obj"}, Rig: batch.RigOptions{
			Method: "face-clustering", Bones: 17, Skeleton: "none", Rest: "frame:2", FPS: 23.976, Frames: "2:9",
			Clip: "Walk", Iterations: 7, InitBones: 19, MaxInfluences: 3, Seed: 42, Search: "coarse", Stretch: true, Fast: true,
		}},
		Output: "out/hero.glb",
	}
	// Every RigOptions field must be set above, so a new one needs a flag.
	v := reflect.ValueOf(job.Item.Rig)
	for k := 0; k < v.NumField(); k++ {
		if v.Field(k).IsZero() {
			t.Fatalf("set RigOptions.%s in this test", v.Type().Field(k).Name)
		}
	}
	args := job.Args()
	if args[0] != "rig" {
		t.Fatalf("args %q", args)
	}
	cmd, rest, err := newRoot().Find(args)
	if err != nil || cmd.Name() != "rig" {
		t.Fatalf("%q finds %v, %v", args, cmd, err)
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Fatalf("meshrig rig refuses %q: %v", args, err)
	}
	f := cmd.Flags()
	got := map[string]string{}
	for _, name := range []string{"output", "report", "quiet", "method", "bones", "skeleton", "rest", "fps", "frames", "clip", "iterations", "init-bones", "max-influences", "seed", "search", "stretch", "fast"} {
		fl := f.Lookup(name)
		if fl == nil {
			t.Fatalf("meshrig rig has no --%s", name)
		}
		got[name] = fl.Value.String()
	}
	want := map[string]string{
		"output": "out/hero.glb", "report": "-", "method": "face-clustering", "bones": "17", "skeleton": "none",
		"rest": "frame:2", "fps": "23.976", "frames": "2:9", "clip": "Walk", "iterations": "7", "init-bones": "19",
		"max-influences": "3", "seed": "42", "quiet": "true", "search": "coarse", "stretch": "true", "fast": "true",
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("--%s = %q, want %q", k, got[k], w)
		}
	}
	if pos := f.Args(); !reflect.DeepEqual(pos, []string{"walk/", "run/*.obj"}) {
		t.Errorf("inputs %q", pos)
	}
}
