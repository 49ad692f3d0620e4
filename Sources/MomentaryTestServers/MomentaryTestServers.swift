// Local protocol-speaking stand-ins for push services; see the files beside this one.
enum MomentaryTestServers {}
