"""Ticket to Ride: India (Map Collection 2), its facts written into the tests.

Transcribed from the reference tables (``india.json``: Board Game Arena's data,
which an independent JavaScript engine's tables match entry for entry), not
from ``maps/india.toml``: a change to the map file must be matched here by
hand. The table formats are ``map_facts``' (its ``routes`` and ``tickets`` read
them): routes ``id|a|b|colour|length|pair|toll`` (the toll column stays empty:
India has no tolls), tickets ``id|a|b|points|neutral route`` (neutral empty);
locations ``name|aliases|x,y`` (aliases comma-separated, none: empty).
Route and ticket ids are the reference tables' numbers minus one.
"""

from __future__ import annotations

from .map_facts import routes, tickets

__all__ = [
    "INDIA_BOTH_PAIR_ROUTES_MIN_PLAYERS",
    "INDIA_CARS_PER_PLAYER",
    "INDIA_COLORS",
    "INDIA_DISPLAY_SIZE",
    "INDIA_END_TRIGGER_CARS",
    "INDIA_FERRY_LOCOMOTIVES",
    "INDIA_LOCATIONS",
    "INDIA_MANDALA_BONUS",
    "INDIA_MAX_FACE_UP_WILDS",
    "INDIA_MISPRINTS",
    "INDIA_PLAYERS",
    "INDIA_ROUTES",
    "INDIA_ROUTE_POINTS",
    "INDIA_STARTING_HAND",
    "INDIA_TICKETS",
    "INDIA_TICKETS_RETURNED",
    "INDIA_TICKET_DEAL",
    "INDIA_TICKET_DRAW",
    "INDIA_WILDS",
    "locations",
    "routes",
    "tickets",
]

# The 39 cities: the real places' spellings as names; the other spellings the
# sources write (perhaps the board's misprints) and the modern names as aliases.
# Positions: Board Game Arena's pixels ÷ its upright board image (1125 x 1744).
INDIA_LOCATIONS = """
Agra||0.4222,0.3687
Ahmadabad||0.1947,0.4369
Ambala||0.4178,0.1726
Bareilly||0.5022,0.2569
Bezwada|Vijayawada|0.5227,0.6325
Bhatinda||0.2622,0.1749
Bhopal||0.4196,0.4295
Bilaspur||0.5698,0.4295
Bombay|Mumbai|0.2151,0.5734
Calcutta|Kolkata|0.8151,0.4461
Calicut|Kozhikode|0.3111,0.7873
Chittagong||0.9653,0.4318
Delhi||0.4036,0.2735
Dhubri||0.8613,0.3555
Erode||0.5191,0.7993
Guntakal||0.3822,0.6703
Indur|Nizamabad|0.5058,0.5361
Jacobabad||0.1067,0.195
Jaipur||0.3227,0.3526
Jorhat|Jarhat|0.9751,0.2982
Jodhpur||0.2098,0.3062
Karachi||0.0258,0.3492
Katni||0.5707,0.371
Khandwa||0.3111,0.4891
Lahore||0.2133,0.0791
Lucknow||0.544,0.3154
Madras|Chennai|0.5316,0.6972
Mangalore||0.288,0.7271
Manmad||0.3049,0.5482
Mormugao|Mormugau|0.2276,0.637
Patna||0.7164,0.3549
Peshawar||0.1156,0.0648
Poona|Pune|0.304,0.6067
Quilon|Kollam|0.3707,0.8796
Raipur||0.552,0.4885
Ratlam|Ratiam|0.28,0.406
Rohri||0.1627,0.2489
Wadi||0.3973,0.6095
Waltair|Visakhapatnam,Waltain|0.672,0.5917
"""
# The name taken -> the other spelling a source writes (kept as an alias):
# Jarhat, Ratiam, Mormugau (Board Game Arena), Waltain (the JavaScript engine's
# key and the wiki's trivia). The printed labels were not seen.
INDIA_MISPRINTS = {
    "Jorhat": "Jarhat",
    "Ratlam": "Ratiam",
    "Mormugao": "Mormugau",
    "Waltair": "Waltain",
}

# India: routes (no tolls; the toll column stays empty), in Board Game Arena's
# route order; 28 pairs. The ferries' locomotive spaces are locked by the dict below.
INDIA_ROUTES = """
0|Agra|Bhopal|purple|1|1|
1|Agra|Bhopal|red|1|1|
2|Agra|Delhi|orange|2||
3|Agra|Jaipur|blue|1|2|
4|Agra|Jaipur|white|1|2|
5|Agra|Katni|green|2||
6|Agra|Lucknow|gray|2||
7|Ahmadabad|Bombay|white|3||
8|Ahmadabad|Jodhpur|purple|3|3|
9|Ahmadabad|Jodhpur|black|3|3|
10|Ahmadabad|Khandwa|yellow|2||
11|Ahmadabad|Ratlam|green|1||
12|Ambala|Bareilly|orange|2||
13|Ambala|Bhatinda|white|2|4|
14|Ambala|Bhatinda|yellow|2|4|
15|Ambala|Delhi|gray|2|5|
16|Ambala|Delhi|gray|2|5|
17|Ambala|Lahore|black|4||
18|Bareilly|Delhi|white|1||
19|Bareilly|Lucknow|gray|1||
20|Bareilly|Patna|green|4||
21|Bezwada|Guntakal|blue|2||
22|Bezwada|Indur|green|2|6|
23|Bezwada|Indur|yellow|2|6|
24|Bezwada|Madras|red|1||
25|Bezwada|Waltair|orange|2|7|
26|Bezwada|Waltair|black|2|7|
27|Bhatinda|Delhi|blue|3||
28|Bhatinda|Jodhpur|green|3||
29|Bhatinda|Lahore|gray|2|8|
30|Bhatinda|Lahore|gray|2|8|
31|Bhatinda|Rohri|purple|2||
32|Bhopal|Bilaspur|gray|2|9|
33|Bhopal|Bilaspur|gray|2|9|
34|Bhopal|Khandwa|blue|2||
35|Bhopal|Ratlam|black|2||
36|Bilaspur|Calcutta|yellow|4||
37|Bilaspur|Katni|white|1|10|
38|Bilaspur|Katni|purple|1|10|
39|Bilaspur|Raipur|black|1|11|
40|Bilaspur|Raipur|red|1|11|
41|Bombay|Calicut|gray|6||
42|Bombay|Karachi|gray|6|12|
43|Bombay|Karachi|gray|6|12|
44|Bombay|Manmad|black|1||
45|Bombay|Mormugao|green|1||
46|Bombay|Poona|blue|1||
47|Calcutta|Chittagong|gray|2|13|
48|Calcutta|Chittagong|gray|2|13|
49|Calcutta|Dhubri|gray|2|14|
50|Calcutta|Dhubri|gray|2|14|
51|Calcutta|Madras|gray|8||
52|Calcutta|Patna|purple|2||
53|Calcutta|Raipur|blue|4||
54|Calcutta|Waltair|red|4||
55|Calicut|Erode|blue|3|15|
56|Calicut|Erode|red|3|15|
57|Calicut|Mangalore|white|1|16|
58|Calicut|Mangalore|yellow|1|16|
59|Calicut|Quilon|gray|2|17|
60|Calicut|Quilon|gray|2|17|
61|Chittagong|Dhubri|white|2||
62|Chittagong|Jorhat|gray|3||
63|Delhi|Jaipur|purple|2||
64|Delhi|Lucknow|yellow|2||
65|Dhubri|Jorhat|gray|2|18|
66|Dhubri|Jorhat|gray|2|18|
67|Dhubri|Patna|blue|2|19|
68|Dhubri|Patna|red|2|19|
69|Erode|Madras|green|2|20|
70|Erode|Madras|orange|2|20|
71|Erode|Quilon|gray|4||
72|Guntakal|Madras|white|2||
73|Guntakal|Mangalore|gray|2||
74|Guntakal|Mormugao|red|2||
75|Guntakal|Wadi|purple|1|21|
76|Guntakal|Wadi|black|1|21|
77|Indur|Manmad|purple|3||
78|Indur|Wadi|gray|2||
79|Jacobabad|Lahore|red|3||
80|Jacobabad|Karachi|white|4||
81|Jacobabad|Peshawar|orange|3|22|
82|Jacobabad|Peshawar|yellow|3|22|
83|Jacobabad|Rohri|blue|1|23|
84|Jacobabad|Rohri|green|1|23|
85|Jaipur|Jodhpur|red|2||
86|Jaipur|Ratlam|yellow|1|24|
87|Jaipur|Ratlam|orange|1|24|
88|Jodhpur|Karachi|orange|3||
89|Karachi|Rohri|black|3||
90|Katni|Lucknow|blue|1|25|
91|Katni|Lucknow|black|1|25|
92|Katni|Patna|gray|2|26|
93|Katni|Patna|gray|2|26|
94|Khandwa|Manmad|red|1||
95|Khandwa|Raipur|orange|4||
96|Khandwa|Ratlam|gray|2||
97|Lahore|Peshawar|green|1|27|
98|Lahore|Peshawar|purple|1|27|
99|Madras|Mangalore|purple|4||
100|Madras|Waltair|yellow|3||
101|Mangalore|Mormugao|black|2||
102|Manmad|Poona|gray|1||
103|Mormugao|Poona|gray|1||
104|Mormugao|Wadi|gray|2||
105|Poona|Wadi|orange|1||
106|Raipur|Waltair|green|3|28|
107|Raipur|Waltair|white|3|28|
"""
# Ferries (all gray): route id -> locomotive spaces (12 in all, on 8 routes).
INDIA_FERRY_LOCOMOTIVES = {
    41: 2,
    42: 2,
    43: 2,
    47: 1,
    48: 1,
    51: 2,
    59: 1,
    60: 1,
}
INDIA_TICKETS = """
0|Agra|Jorhat|8|
1|Ahmadabad|Calicut|7|
2|Ambala|Mormugao|10|
3|Ambala|Ratlam|5|
4|Ambala|Waltair|9|
5|Bareilly|Ahmadabad|5|
6|Bareilly|Calcutta|6|
7|Bareilly|Guntakal|10|
8|Bhatinda|Bezwada|13|
9|Bhatinda|Bilaspur|7|
10|Bhatinda|Manmad|9|
11|Bhopal|Calcutta|6|
12|Bhopal|Mormugao|5|
13|Bilaspur|Calicut|10|
14|Bilaspur|Dhubri|5|
15|Bombay|Bezwada|5|
16|Bombay|Quilon|6|
17|Calcutta|Erode|9|
18|Calcutta|Indur|8|
19|Chittagong|Wadi|11|
20|Delhi|Calicut|11|
21|Delhi|Chittagong|9|
22|Delhi|Indur|9|
23|Dhubri|Mangalore|12|
24|Jacobabad|Bombay|10|
25|Jacobabad|Calcutta|13|
26|Jacobabad|Ratlam|9|
27|Jaipur|Patna|5|
28|Jaipur|Poona|5|
29|Jaipur|Raipur|5|
30|Jorhat|Bombay|13|
31|Jodhpur|Guntakal|9|
32|Jodhpur|Khandwa|5|
33|Jodhpur|Lucknow|5|
34|Karachi|Ahmadabad|6|
35|Karachi|Delhi|7|
36|Karachi|Poona|7|
37|Katni|Khandwa|5|
38|Katni|Wadi|8|
39|Katni|Waltair|5|
40|Khandwa|Chittagong|10|
41|Lahore|Delhi|5|
42|Lahore|Dhubri|12|
43|Lahore|Wadi|13|
44|Lucknow|Bombay|7|
45|Lucknow|Erode|11|
46|Manmad|Erode|7|
47|Madras|Quilon|6|
48|Patna|Madras|9|
49|Patna|Mormugao|10|
50|Peshawar|Bhopal|9|
51|Peshawar|Madras|17|
52|Raipur|Guntakal|7|
53|Raipur|Manmad|5|
54|Ratlam|Bezwada|8|
55|Rohri|Agra|7|
56|Rohri|Mangalore|12|
57|Waltair|Mangalore|6|
"""

# Rule numbers (the rules text; Board Game Arena's settings).
INDIA_PLAYERS = (2, 4)
INDIA_CARS_PER_PLAYER = 45
INDIA_COLORS = {
    "purple": 12,
    "blue": 12,
    "orange": 12,
    "white": 12,
    "green": 12,
    "yellow": 12,
    "black": 12,
    "red": 12,
}
INDIA_WILDS = 14
INDIA_STARTING_HAND = 4
INDIA_DISPLAY_SIZE = 5
INDIA_MAX_FACE_UP_WILDS = 2
INDIA_END_TRIGGER_CARS = 2
# Tickets dealt at the start and kept at least; drawn later and kept at least.
INDIA_TICKET_DEAL = (4, 2)
INDIA_TICKET_DRAW = (3, 1)
# Where unkept tickets go, at the start and after a draw: under the deck.
INDIA_TICKETS_RETURNED = "bottom"
INDIA_ROUTE_POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 6: 15, 8: 21}
# Both routes of a double pair are open only from this many players.
INDIA_BOTH_PAIR_ROUTES_MIN_PLAYERS = 4
# The Grand Tour (Mandala): points for 1, 2, 3, 4 and 5 or more qualifying tickets.
INDIA_MANDALA_BONUS = (5, 10, 20, 30, 40)


def locations(table: str) -> list[tuple[str, tuple[str, ...], tuple[float, float]]]:
    """The rows of a location table: (name, aliases, (x, y))."""
    rows = []
    for line in table.strip().splitlines():
        name, aliases, pos = line.split("|")
        x, y = pos.split(",")
        rows.append((name, tuple(aliases.split(",")) if aliases else (), (float(x), float(y))))
    return rows
