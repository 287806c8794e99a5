package lifecycle_test

import (
	"errors"
	"fmt"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// A 0.11.1 client resumes its logical session on a new connection with
// BIND_SESSION instead of logging in again: the login carried a fresh bind
// secret, and the bind proves it. A logout ends the session for every
// connection; a bind refused (status 40) means: log in again.
func ExampleClient_BindSession() {
	server, err := lifecycle.NewServer(lifecycle.Config{
		Window: codec.InclusiveWindow(codec.Protocol0111, codec.Protocol0111),
		Auth: lifecycle.StaticAuth{Users: []lifecycle.User{
			{ID: 1, Name: "iggy", Password: codec.NewSecret([]byte("iggy"))},
		}},
	})
	if err != nil {
		panic(err)
	}
	client, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0", Protocol: codec.Protocol0111})
	if err != nil {
		panic(err)
	}
	roundTrip := func(conn *lifecycle.Conn, request []byte) (lifecycle.Response, error) {
		answer, _, _ := conn.Handle(request, nil)
		return client.Receive(answer)
	}

	first := server.NewConn()
	request, _ := client.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
	reply, err := roundTrip(first, request)
	fmt.Println("login:", err, "session", reply.Login.Session, "resumable", client.State().Resumable)

	// the first connection is lost; a second one binds the same session
	second := server.NewConn()
	request, _ = client.BindSession(nil)
	reply, err = roundTrip(second, request)
	fmt.Println("bind:", err, "session", reply.Login.Session, "logged in:", second.State().LoggedIn)

	request, _ = client.Logout(nil)
	_, err = roundTrip(second, request)
	fmt.Println("logout:", err, "resumable", client.State().Resumable)
	_, err = client.BindSession(nil)
	fmt.Println("bind after logout:", errors.Is(err, lifecycle.ErrLoginAgain))
	// Output:
	// login: <nil> session 1 resumable true
	// bind: <nil> session 1 logged in: true
	// logout: <nil> resumable false
	// bind after logout: true
}

// A bind the server refuses (here a secret it does not know: the logical
// session was made by another server) is a *BindRefusedError: log in again.
func ExampleBindRefusedError() {
	auth := lifecycle.StaticAuth{Users: []lifecycle.User{{ID: 1, Name: "iggy", Password: codec.NewSecret([]byte("iggy"))}}}
	window := codec.InclusiveWindow(codec.Protocol0111, codec.Protocol0111)
	before, _ := lifecycle.NewServer(lifecycle.Config{Window: window, Auth: auth})
	after, _ := lifecycle.NewServer(lifecycle.Config{Window: window, Auth: auth}) // restarted: it knows no session
	client, _ := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0", Protocol: codec.Protocol0111})

	conn := before.NewConn()
	request, _ := client.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
	answer, _, _ := conn.Handle(request, nil)
	_, err := client.Receive(answer)
	fmt.Println("login:", err)

	conn = after.NewConn()
	request, _ = client.BindSession(nil)
	answer, _, _ = conn.Handle(request, nil)
	_, err = client.Receive(answer)
	var refused *lifecycle.BindRefusedError
	fmt.Println("bind:", errors.As(err, &refused), refused.Status, errors.Is(err, lifecycle.ErrLoginAgain))

	request, _ = client.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
	answer, _, _ = conn.Handle(request, nil)
	_, err = client.Receive(answer)
	fmt.Println("login again, same connection:", err)
	// Output:
	// login: <nil>
	// bind: true Unauthenticated true
	// login again, same connection: <nil>
}
