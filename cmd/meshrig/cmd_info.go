package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/rig"
)

func newInfo(g *globals) *cobra.Command {
	l := &loadFlags{}
	cmd := &cobra.Command{
		Use:   "info INPUT...",
		Short: "Describe a mesh animation: vertices, faces, frames, clips, and any rig it carries",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := l.check(); err != nil {
				return err
			}
			in, err := l.load(cmd.Context(), g, args)
			if errors.Is(err, format.ErrNoFrames) && len(args) == 1 && l.rest == "" {
				// A still file (a static rig, a lone FBX mesh): describe
				// its mesh and rig.
				if sc, serr := format.ReadScene(args[0], format.SceneOptions{Context: cmd.Context()}); serr == nil && sc.Mesh != nil {
					describeStill(cmd.OutOrStdout(), sc)
					return nil
				}
			}
			if err != nil {
				return err
			}
			describe(cmd.OutOrStdout(), in)
			return nil
		},
	}
	l.add(cmd)
	return cmd
}

func describe(w io.Writer, in *format.Input) {
	s := in.Sequence
	describeMesh(w, s.Rest)
	fmt.Fprintf(w, "frames      %d\n", s.F())
	for _, c := range s.Clips {
		fmt.Fprintf(w, "  clip %-20q frames %d–%d at %.5g fps\n", c.Name, c.Start+1, c.End, c.FPS)
	}
	for _, o := range in.Objects {
		fmt.Fprintf(w, "  object %s  %s", o.Path, o.Type)
		if o.Verts > 0 {
			fmt.Fprintf(w, "  %d vertices, %s", o.Verts, count(o.Faces, "face"))
		}
		switch {
		case o.Samples == 1:
			fmt.Fprintf(w, "  1 sample (static)")
		case o.Samples > 1:
			fmt.Fprintf(w, "  %s %.5g–%.5g s", count(o.Samples, "sample"), o.Start, o.End)
			if o.FPS > 0 {
				fmt.Fprintf(w, " (%.5g fps)", o.FPS)
			}
		}
		switch {
		case o.FirstVert >= 0:
			fmt.Fprintf(w, "  read: vertices %d–%d", o.FirstVert+1, o.FirstVert+o.Verts)
		case o.Note != "":
			fmt.Fprintf(w, "  %s", o.Note)
		}
		fmt.Fprintln(w)
	}
	describeRig(w, in.Truth)
}

// describeStill describes a file without animation: its mesh and rig.
func describeStill(w io.Writer, sc *format.Scene) {
	describeMesh(w, sc.Mesh)
	fmt.Fprintf(w, "frames      0 (no animation)\n")
	describeRig(w, sc.Rig)
}

func describeMesh(w io.Writer, m *mesh.Mesh) {
	top := mesh.NewTopology(m)
	fmt.Fprintf(w, "vertices    %d\n", len(m.Verts))
	fmt.Fprintf(w, "triangles   %d (%s)\n", len(m.Tris), count(m.NumPolys(), "polygon"))
	fmt.Fprintf(w, "components  %d\n", top.NumComponents)
	fmt.Fprintf(w, "diagonal    %.6g\n", mesh.Diagonal(m.Verts))
	if sf := m.Surface; sf != nil {
		fmt.Fprintf(w, "surface     %s\n", describeSurface(sf))
	}
}

func describeRig(w io.Writer, r *rig.Rig) {
	if r != nil {
		scaled := ""
		if r.HasScale() {
			scaled = ", with scale tracks (squash and stretch)"
		}
		fmt.Fprintf(w, "rig         %s, %s, skeletal: %v%s\n", count(r.Skeleton.Len(), "joint"), count(len(r.Clips), "clip"), r.Skeletal(), scaled)
	}
}

// describeSurface says what the rest mesh keeps for the writers: UV sets,
// normals, colour sets, materials (how many textured), images, parts.
func describeSurface(sf *mesh.Surface) string {
	parts := []string{count(len(sf.UVs), "UV set")}
	if sf.Normals != nil {
		parts = append(parts, "normals")
	}
	if len(sf.Colors) > 0 {
		parts = append(parts, count(len(sf.Colors), "colour set"))
	}
	textured := 0
	for k := range sf.Materials {
		if sf.Materials[k].BaseColorTexture != nil {
			textured++
		}
	}
	parts = append(parts, fmt.Sprintf("%s (%d textured)", count(len(sf.Materials), "material"), textured),
		count(len(sf.Images), "image"), count(max(len(sf.Parts), 1), "part"))
	return strings.Join(parts, ", ")
}
