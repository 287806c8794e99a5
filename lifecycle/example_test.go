package lifecycle_test

import (
	"fmt"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// A server answers a client's login without any socket: the client builds
// the request frame, the server's Conn handles it, the client reads the
// answer.
func Example() {
	server, err := lifecycle.NewServer(lifecycle.Config{
		Window: codec.DefaultWindow(codec.MustPack(0, 11, 0)),
		Auth: lifecycle.StaticAuth{Users: []lifecycle.User{
			{ID: 1, Name: "iggy", Password: codec.NewSecret([]byte("iggy"))},
		}},
	})
	if err != nil {
		panic(err)
	}
	conn := server.NewConn()
	client, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0"})
	if err != nil {
		panic(err)
	}

	request, _ := client.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
	answer, _, _ := conn.Handle(request, nil)
	reply, err := client.Receive(answer)
	fmt.Println("login:", err, "user", reply.Login.UserID, "session", reply.Login.Session, "server", reply.Login.ServerProtocol)

	request, _ = client.Request(nil, codec.CodeGetClusterMetadata, nil)
	answer, _, _ = conn.Handle(request, nil)
	_, err = client.Receive(answer)
	fmt.Println("GetClusterMetadata:", err)

	request, _ = client.Logout(nil)
	answer, _, _ = conn.Handle(request, nil)
	_, err = client.Receive(answer)
	fmt.Println("logout:", err, "logged in:", conn.State().LoggedIn)

	request, _ = client.Login(nil, []byte("iggy"), codec.NewSecret([]byte("wrong")))
	answer, _, _ = conn.Handle(request, nil)
	_, err = client.Receive(answer)
	fmt.Println("wrong password:", err, "closed:", conn.Closed(), client.Closed())
	// Output:
	// login: <nil> user 1 session 1 server 0.11.0
	// GetClusterMetadata: codec: iggy status 3 (InvalidCommand)
	// logout: <nil> logged in: false
	// wrong password: codec: iggy status 42 (InvalidCredentials) closed: true true
}

// A transport hands each frame to its Conn and reads from the Outcome what
// happened, for its logs, metrics and timers, without decoding the frames
// again.
func ExampleConn_Handle() {
	server, err := lifecycle.NewServer(lifecycle.Config{
		Window: codec.DefaultWindow(codec.MustPack(0, 11, 0)),
		Auth: lifecycle.StaticAuth{Users: []lifecycle.User{
			{ID: 1, Name: "iggy", Password: codec.NewSecret([]byte("iggy"))},
		}},
	})
	if err != nil {
		panic(err)
	}
	conn := server.NewConn()
	client, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0"})
	if err != nil {
		panic(err)
	}
	out := make([]byte, 0, 512) // reused: a ping or a denial then costs no allocation

	ping, _ := client.Ping(nil)
	out, o, err := conn.Handle(ping, out[:0])
	fmt.Println(o.Code, o.Answer, o.Status, o.Before, "->", o.After, err)
	_, _ = client.Receive(out)

	login, _ := client.Login(nil, []byte("iggy"), codec.NewSecret([]byte("wrong")))
	out, o, err = conn.Handle(login, out[:0])
	// A login that did not bind names nobody (Login.Username is nil).
	fmt.Printf("login of %q: %s, %v %v, %v -> %v, %v\n", o.Login.Username, o.Login.Label(), o.Answer, o.Reason, o.Before, o.After, err)
	// Output:
	// PING reply OK open -> open <nil>
	// login of "": InvalidCredentials, eviction InvalidCredentials, open -> closed, <nil>
}
