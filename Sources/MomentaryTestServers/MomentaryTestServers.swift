// Local protocol-speaking stand-ins for outside services (push services, Open-Meteo); see the files beside this one.
enum MomentaryTestServers {}
