// child module
node 1000 0 t2 track normal 50 1.435 0.25 20 20 0 flat unvis
 0 0 -50 0  0 0 0  0 0 0  0 0 0 0  0
endtrack
