package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/meshrig/meshrig/format"
	"github.com/meshrig/meshrig/mesh"
	"github.com/meshrig/meshrig/method/refit"
	"github.com/meshrig/meshrig/method/registry"
	"github.com/meshrig/meshrig/method/skinweights"
	"github.com/meshrig/meshrig/rig"
	"github.com/meshrig/meshrig/seq"
	"github.com/meshrig/meshrig/viewer"
	"github.com/meshrig/meshrig/viewer/web"
)

type viewOptions struct {
	port    int
	listen  string
	open    bool
	saveDir string
	static  bool
	method  string
	weights string
	bones   int
	maxInf  int
	load    loadFlags
}

func newView(g *globals) *cobra.Command {
	o := &viewOptions{}
	cmd := &cobra.Command{
		Use:   "view RIG.glb [INPUT...] | view INPUT... --method M | view MESH --static",
		Short: "Look at a rig in the browser: pose, edit the skeleton, re-solve, save",
		Long: `view starts a local web server and prints the address of a page that shows a
rig: the skinned mesh and its skeleton, every clip, and — given the animation
the rig came from — the per-vertex error against it. On the page you pose
joints, move, add, split, remove and reparent them (undo, redo), re-solve the
rig with the skeleton held fixed, and save it as .glb or .dae.

  view RIG [INPUT...]       a rig (glTF or Collada), optionally with its input
  view INPUT... --method M  rig the animation first (ledeng, face-clustering, spectral)
  view MESH --static        skeletonize one static mesh first (--method forcefield|contraction)

The server listens on 127.0.0.1 only (another address only with --listen),
every request must carry the random token in the printed address, and saves
go only into --save-dir (default: the current folder), never over a file it
read. Ctrl-C stops it; unsaved edits are reported, not saved.`,
		Example: `  meshrig view horse.glb horse-gallop/
  meshrig view horse-gallop/ --method ledeng --open
  meshrig view armadillo.obj.gz --static --save-dir out/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runView(cmd, g, o, args)
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.port, "port", 0, "port to listen on (0: any free port)")
	f.StringVar(&o.listen, "listen", "", "address to listen on, HOST or HOST:PORT (default 127.0.0.1: this machine only)")
	f.BoolVar(&o.open, "open", false, "open the page in the system browser")
	f.StringVar(&o.saveDir, "save-dir", ".", "folder the page may save rigs in (and below)")
	f.BoolVar(&o.static, "static", false, "MESH is one static mesh: find its skeleton and weights first")
	f.StringVar(&o.method, "method", "", "rig the INPUT with this method first (animations: ledeng, face-clustering, spectral; with --static: forcefield, contraction)")
	f.StringVar(&o.weights, "weights", "", "static rigs: skin weights when binding and re-solving (heat, geodesic, distance, rigid; default heat)")
	f.IntVar(&o.bones, "bones", 0, "--method: at most this many bones (default: as many as the motion needs)")
	f.IntVar(&o.maxInf, "max-influences", 4, "most joints per vertex (1–4), also when re-solving")
	o.load.add(cmd)
	return cmd
}

// listenAddr is the address to bind: --listen as given (its port, or
// --port), else loopback at --port.
func (o *viewOptions) listenAddr(cmd *cobra.Command) (string, error) {
	if o.port < 0 || o.port > 65535 {
		return "", fmt.Errorf("--port %d: want 0 to 65535", o.port)
	}
	port := strconv.Itoa(o.port)
	if o.listen == "" {
		return net.JoinHostPort("127.0.0.1", port), nil
	}
	if _, p, err := net.SplitHostPort(o.listen); err == nil {
		if cmd.Flags().Changed("port") && p != port {
			return "", fmt.Errorf("--listen %s names a port; --port %d differs", o.listen, o.port)
		}
		return o.listen, nil
	}
	return net.JoinHostPort(o.listen, port), nil
}

func (o *viewOptions) check(cmd *cobra.Command) error {
	if _, err := o.listenAddr(cmd); err != nil {
		return err
	}
	if o.weights != "" {
		if _, err := skinweights.ParseScheme(o.weights); err != nil {
			return fmt.Errorf("--weights: %w", err)
		}
	}
	if o.static && len(cmd.Flags().Args()) != 1 {
		return fmt.Errorf("--static views one mesh; got %d arguments", len(cmd.Flags().Args()))
	}
	return firstErr(o.load.check(), intIn("--max-influences", o.maxInf, 1, 4), intOrZero("--bones", o.bones, 1, maxBones))
}

func runView(cmd *cobra.Command, g *globals, o *viewOptions, args []string) error {
	start := time.Now()
	ctx := cmd.Context()
	if err := o.check(cmd); err != nil {
		return err
	}
	rigFirst := cmd.Flags().Changed("method") && !o.static
	r, in, read, err := o.build(ctx, g, rigFirst, args)
	if err != nil {
		return err
	}
	listen, _ := o.listenAddr(cmd)
	stderr := cmd.ErrOrStderr()
	srv, err := viewer.New(viewer.Options{
		Rig: r, Input: in, Name: filepath.Base(args[0]), Static: o.static,
		Inputs: read, SaveDir: o.saveDir, Listen: listen, Web: web.FS, Start: start,
		Solve: viewer.Refit(o.weights, refit.Options{MaxInfluences: o.maxInf}),
		Logf: func(format string, a ...any) {
			if !g.quiet {
				fmt.Fprintf(stderr, "meshrig view: "+format+"\n", a...)
			}
		},
	})
	if err != nil {
		if in != nil && !rigFirst {
			return fmt.Errorf("%s with %v: %w", args[0], args[1:], err)
		}
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "meshrig view: %s\n", srv.URL())
	if host, _, _ := net.SplitHostPort(srv.Addr()); !net.ParseIP(host).IsLoopback() {
		fmt.Fprintf(stderr, "meshrig view: listening on %s: other machines can reach it; the token is all that keeps them out\n", srv.Addr())
	}
	g.logf("meshrig view: ready %d ms after start; Ctrl-C stops it", time.Since(start).Milliseconds())
	if o.open {
		if err := openBrowser(srv.URL()); err != nil {
			g.logf("note: could not open a browser (%v); open the address above", err)
		}
	}
	err = srv.Serve(ctx)
	if n := srv.Unsaved(); n > 0 {
		fmt.Fprintf(stderr, "meshrig view: %s; not saved\n", count(n, "unsaved edit"))
	}
	return err
}

// build reads or makes the rig to view, with the animation it is measured
// against (nil when none) and every file read.
func (o *viewOptions) build(ctx context.Context, g *globals, rigFirst bool, args []string) (*rig.Rig, *seq.Sequence, []string, error) {
	read := append([]string(nil), args...)
	if rest := o.load.restFile(); rest != "" {
		read = append(read, rest)
	}
	opt := registry.Options{Bones: o.bones, MaxInfluences: o.maxInf, Weights: o.weights,
		Notes: func(msg string) { g.logf("note: %s", msg) }}
	switch {
	case o.static:
		name := o.method
		if name == "" {
			name = registry.StaticNames()[0]
		}
		e, err := registry.Static(name)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("--method: %w", err)
		}
		m, files, err := readMeshFiles(args[0])
		if err != nil {
			return nil, nil, nil, err
		}
		read = append(read, files...)
		progress, finish := g.progress("skeleton")
		opt.Progress = progress
		r, err := e.Skeletonize(ctx, m, opt)
		finish(err)
		return r, nil, read, err
	case rigFirst:
		e, err := registry.Animation(o.method)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("--method: %w", err)
		}
		in, err := o.load.load(ctx, g, args)
		if err != nil {
			return nil, nil, nil, err
		}
		progress, finish := g.progress("rigging")
		opt.Progress = progress
		r, err := e.Rig(ctx, in.Sequence, opt)
		finish(err)
		return r, in.Sequence, append(read, in.Files...), err
	}
	if st, err := os.Stat(args[0]); err == nil && st.IsDir() {
		return nil, nil, nil, fmt.Errorf("%s is a folder, not a rig: rig its animation first with --method ledeng, or name the rig first", args[0])
	}
	if f, _, err := format.ByPath(args[0]); err == nil && f.Scene == nil {
		return nil, nil, nil, fmt.Errorf("%s is a %s mesh, not a rig: view it with --static, or rig an animation first with --method", args[0], f.Name)
	}
	sc, err := format.ReadScene(args[0], format.SceneOptions{Context: ctx})
	if err != nil {
		return nil, nil, nil, err
	}
	read = append(read, sc.Files...)
	if sc.Rig == nil {
		return nil, nil, nil, fmt.Errorf("%s holds no skinned rig (view a mesh with --static, an animation with --method)", args[0])
	}
	if len(args) == 1 {
		return sc.Rig, nil, read, nil
	}
	in, err := o.load.load(ctx, g, args[1:])
	if err != nil {
		return nil, nil, nil, err
	}
	return sc.Rig, in.Sequence, append(read, in.Files...), nil
}

// readMeshFiles reads a static mesh like skeletonize (a mesh file, or a
// scene's bind pose) and lists the side files a scene read.
func readMeshFiles(path string) (*mesh.Mesh, []string, error) {
	f, _, err := format.ByPath(path)
	if err != nil {
		return nil, nil, err
	}
	if f.Mesh != nil {
		m, err := format.ReadMesh(path)
		return m, nil, err
	}
	sc, err := format.ReadScene(path, format.SceneOptions{})
	if err != nil {
		return nil, nil, err
	}
	if sc.Mesh == nil {
		return nil, nil, fmt.Errorf("%s holds no mesh", path)
	}
	return sc.Mesh, sc.Files, nil
}

// openBrowser asks the desktop to open url, without waiting for it.
func openBrowser(url string) error {
	var c *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		c = exec.Command("open", url)
	case "windows":
		c = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		c = exec.Command("xdg-open", url)
	}
	c.Stdout, c.Stderr = io.Discard, io.Discard
	if err := c.Start(); err != nil {
		return err
	}
	go c.Wait()
	return nil
}
