package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/meshrig/meshrig/character"
	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/format/obj"
	"github.com/meshrig/meshrig/format/pc2"
	"github.com/meshrig/meshrig/internal/safefile"
	"github.com/meshrig/meshrig/linalg"
)

type genOptions struct {
	out      string
	frames   int
	seed     uint64
	vertices int
	shells   bool
	pc2      bool
}

func newGen(g *globals) *cobra.Command {
	o := &genOptions{}
	cmd := &cobra.Command{
		Use:   "gen KIND -o DIR",
		Short: "Generate a character with known skeleton, weights and motion (ground truth)",
		Long: `gen writes a procedural character as a mesh animation — DIR/rest.obj and
DIR/frame-0001.obj …, or with --pc2 one point cache DIR/anim.pc2 streamed a
frame at a time (a production-size cache: --vertices 100000 --frames 1000
is 1.2 GB) — plus its ground-truth rig, DIR/truth.glb. Rig the folder and
compare: meshrig rig DIR -o out.glb (with --pc2 too: a folder of one cache
and its rest mesh is that cache), then meshrig eval out.glb DIR --truth
DIR/truth.glb.

Kinds:
  ` + strings.Join(character.Kinds(), "\n  "),
		Example: `  meshrig gen biped -o walk/
  meshrig gen quadruped -o dog/ --frames 120 --seed 7
  meshrig gen snake -o snake/ --shells
  meshrig gen biped -o crowd/ --vertices 100000 --frames 1000 --pc2`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			kind, err := character.ParseKind(args[0])
			if err != nil {
				return err
			}
			if o.out == "" {
				return fmt.Errorf("give the output folder with -o DIR")
			}
			if err := firstErr(intIn("--frames", o.frames, 1, 100000), intIn("--vertices", o.vertices, 200, 2000000)); err != nil {
				return err
			}
			if st, err := os.Stat(o.out); err == nil && !st.IsDir() {
				return fmt.Errorf("-o %s is a file: gen writes a folder", o.out)
			}
			if err := os.MkdirAll(o.out, 0o755); err != nil {
				return err
			}
			var plan safefile.Plan
			defer plan.Abort()
			name := func(f int) string { return filepath.Join(o.out, fmt.Sprintf("frame-%04d.obj", f+1)) }
			rest, truth, cache := filepath.Join(o.out, "rest.obj"), filepath.Join(o.out, "truth.glb"), filepath.Join(o.out, "anim.pc2")
			outs := []string{rest, truth}
			if o.pc2 {
				outs = append(outs, cache)
			} else {
				for f := 0; f < o.frames; f++ {
					outs = append(outs, name(f))
				}
			}
			for _, p := range outs {
				if err := plan.Output("-o", p); err != nil {
					return err
				}
			}
			r, err := character.Generate(kind, character.Options{Frames: o.frames, Seed: o.seed, Vertices: o.vertices, Shells: o.shells})
			if err != nil {
				return err
			}
			writeOBJ := func(path string, verts []linalg.Vec3) error {
				return plan.Stage(path, func(w io.Writer) error { return obj.Write(w, r.Mesh.WithVerts(verts)) })
			}
			if err := writeOBJ(rest, r.Mesh.Verts); err != nil {
				return err
			}
			update, finish := g.progress("writing frames")
			c := &r.Clips[0]
			if o.pc2 {
				err := plan.Stage(cache, func(w io.Writer) error {
					return pc2.WriteFrames(w, len(r.Mesh.Verts), c.Frames, c.FPS, func(f int, dst []linalg.Vec3) []linalg.Vec3 {
						update("", f+1, c.Frames)
						return r.Frame(dst, 0, f)
					})
				})
				finish(err)
				if err != nil {
					return err
				}
			} else {
				for f := 0; f < c.Frames; f++ {
					err := cmd.Context().Err()
					if err == nil {
						err = writeOBJ(name(f), r.Frame(nil, 0, f))
					}
					if err != nil {
						finish(err)
						return err
					}
					update("", f+1, c.Frames)
				}
				finish(nil)
			}
			if err := stageRig(&plan, truth, r, format.WriteOptions{}); err != nil {
				return err
			}
			if err := plan.Commit(cmd.Context()); err != nil {
				return err
			}
			files := fmt.Sprintf("rest.obj, frame-0001…%04d.obj, truth.glb", c.Frames)
			if o.pc2 {
				files = "rest.obj, anim.pc2, truth.glb"
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: %d vertices, %d joints, %d frames → %s (%s)\n",
				kind, len(r.Mesh.Verts), r.Skeleton.Len(), c.Frames, o.out, files)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVarP(&o.out, "output", "o", "", "output folder (required)")
	f.IntVar(&o.frames, "frames", 60, "frames of animation (30 fps), 1 to 100000")
	f.Uint64Var(&o.seed, "seed", 1, "seed of the motion")
	f.IntVar(&o.vertices, "vertices", 4000, "approximate vertex count, 200 to 2000000")
	f.BoolVar(&o.shells, "shells", false, "add separate shells (eyes, a ring): a multi-piece mesh")
	f.BoolVar(&o.pc2, "pc2", false, "write the frames as one point cache, DIR/anim.pc2, streamed (not frame-NNNN.obj)")
	return cmd
}
