# Little's law on steady closed populations (docs/WORKLOAD.md "Stationarity check"): each of N users sends a request,
# gets its reply R later, thinks a TPC-W time (exponential, mean 7 s, capped at 70 s), from far before the run phase [0, T).
# Prints, per size, the ratio N / (X (R + Z)) over 1,500 runs: its mean and standard deviation, the mean of the standard
# error Stationarity computes, and the share outside 0.95..1.05 and outside the widened band. StationarityTest checks the
# same model in Java with 600 runs. Usage: python3 docs/experiments/little_sim.py
import random, math, statistics, sys
def run(N, T, R, seed, ztrunc=70.0, zmean=7.0):
    rnd = random.Random(seed)
    n_req = 0; sumZ = 0.0; nZ = 0; z2=0; z3=0
    for u in range(N):
        t = -rnd.uniform(0, 200)  # start far before window: stationary
        while t < T:
            # request at t, reply at t+R, then think Z
            if 0 <= t < T: n_req += 1
            te = t + R
            z = min(rnd.expovariate(1/zmean), ztrunc)
            if 0 <= te < T:
                sumZ += z; nZ += 1; z2 += z*z; z3 += z**3
            t = te + z
    X = n_req / T; Zm = sumZ / nZ
    L = N / (X * (R + Zm))
    m1 = Zm + R; e2 = z2/nZ; e3 = z3/nZ
    m2 = e2 + 2*R*Zm + R*R; m3 = e3 + 3*R*e2 + 3*R*R*Zm + R**3
    var_res = m3/(3*m1) - (m2/(2*m1))**2
    se = math.sqrt(2*var_res/N)/T
    return L, se
for N,T in [(300,40),(300,20),(300,10),(50,40),(2000,40)]:
    Ls=[];ses=[]
    for s in range(1500):
        L,se=run(N,T,0.005,s*7919+N+T)
        Ls.append(L); ses.append(se)
    sd=statistics.pstdev(Ls); mse=statistics.mean(ses)
    out5=sum(1 for L in Ls if abs(L-1)>0.05)/len(Ls)
    outw=sum(1 for L,se in zip(Ls,ses) if abs(L-1)>max(0.05,2.576*se))/len(Ls)
    print(N,T,'mean %.4f sd %.4f meanSE %.4f  out5 %.3f outWidened %.3f'%(statistics.mean(Ls),sd,mse,out5,outw))
